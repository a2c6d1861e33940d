import { useEffect } from 'react';
import { useSession } from './session/sessionStore.js';
import { matchRoute, useRouter } from './router/routerStore.js';
import { SignInScreen } from './session/SignInScreen.js';
import { AppShell } from './shell/AppShell.js';
import { contactScreen } from './contacts/contactRoutes.js';
import { NotesScreen } from './notes/NotesScreen.js';
import { ReportsRoute } from './reports/ReportsRoute.js';
import { NotFoundScreen } from './shell/NotFoundScreen.js';
import { SettingsScreen } from './settings/SettingsScreen.js';
import { adminScreen } from './settings/admin/adminRoutes.js';
import { TasksScreen } from './tasks/TasksScreen.js';
import { HomeScreen } from './home/HomeScreen.js';
import { ReminderWatcher } from './reminders/ReminderWatcher.js';
import { SyncIssuesScreen } from './sync/SyncIssuesScreen.js';
import { leadScreen } from './leads/leadRoutes.js';
import { dealScreen } from './deals/dealRoutes.js';
import { ProductsScreen } from './products/ProductsScreen.js';
import { sequenceScreen } from './sequences/sequenceRoutes.js';
import { enrollmentScreen } from './enrollments/enrollmentRoutes.js';
import { customObjectScreen } from './customObjects/customObjectRoutes.js';
import { importScreen } from './importExport/importRoutes.js';
import { listenForOpenedFiles } from './importExport/openedFiles.js';
import { listenForOpenPaths } from './commands/bridgeEvents.js';
import { useCommands } from './commands/commandStore.js';
import { TeamScreen } from './settings/team/TeamScreen.js';
import { AcceptInviteScreen } from './settings/team/AcceptInviteScreen.js';
import { duplicateScreen } from './duplicates/duplicateRoutes.js';

function Screen({ path }: { path: string }) {
  // Before the record routes: `/contacts/import` is no contact's page.
  const importing = importScreen(path);
  if (importing) return importing;
  const record = contactScreen(path) ?? leadScreen(path) ?? dealScreen(path) ?? sequenceScreen(path) ?? enrollmentScreen(path) ?? customObjectScreen(path);
  if (record) return record;
  // Settings' administration screens (pipelines, sources and reasons, custom fields), before Settings itself.
  const admin = adminScreen(path);
  if (admin) return admin;
  if (matchRoute('/settings/team', path)) return <TeamScreen />;
  if (matchRoute('/settings', path)) return <SettingsScreen />;
  if (matchRoute('/tasks', path)) return <TasksScreen />;
  // Home (Today) is the root: the hub serves the UI at `/` (and at its other screens' paths).
  if (path === '/') return <HomeScreen />;
  if (matchRoute('/products', path)) return <ProductsScreen />;
  if (matchRoute('/sync-issues', path)) return <SyncIssuesScreen />;
  if (matchRoute('/notes', path)) return <NotesScreen />;
  const duplicates = duplicateScreen(path);
  if (duplicates) return duplicates;
  if (matchRoute('/reports', path)) return <ReportsRoute />;
  return <NotFoundScreen path={path} />;
}

export function App() {
  const { status, load } = useSession();
  const { path, navigate } = useRouter();
  // Bumped when a shortcut or the palette created something: the screen loads again to show it.
  const dataVersion = useCommands((s) => s.dataVersion);
  // `/invite/<token>`: a one-time link to set a password (settings/team/AcceptInviteScreen.tsx).
  const invite = matchRoute('/invite/:token', path);
  const inviting = invite !== null;

  useEffect(() => {
    void load();
  }, [load]);

  // From the start, so a file the desktop app was opened with is not missed while the session loads.
  useEffect(() => listenForOpenedFiles(), []);
  // Deep links from the desktop shell, from the start too.
  useEffect(() => listenForOpenPaths(), []);

  // Signed-in people land on their day (Today); signed-out ones on the sign-in page.
  useEffect(() => {
    if (status === 'signed-out' && path !== '/login' && !inviting) navigate('/login', { replace: true });
    if (status === 'signed-in' && path === '/login') navigate('/', { replace: true });
  }, [status, path, navigate, inviting]);

  if (status === 'loading') return <p className="muted splash">Loading…</p>;
  // A one-time link to set a password, for signed-out and signed-in people alike (outside the app's shell).
  if (invite) return <AcceptInviteScreen token={invite.token} />;
  if (status === 'signed-out') return <SignInScreen />;
  return (
    <AppShell>
      <ReminderWatcher />
      <Screen key={dataVersion} path={path} />
    </AppShell>
  );
}
