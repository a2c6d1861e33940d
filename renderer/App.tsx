import { useEffect } from 'react';
import { useSession } from './session/sessionStore.js';
import { matchRoute, useRouter } from './router/routerStore.js';
import { SignInScreen } from './session/SignInScreen.js';
import { AppShell } from './shell/AppShell.js';
import { contactScreen } from './contacts/contactRoutes.js';
import { NotesScreen } from './notes/NotesScreen.js';
import { NotFoundScreen } from './shell/NotFoundScreen.js';
import { SettingsScreen } from './settings/SettingsScreen.js';
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

function Screen({ path }: { path: string }) {
  // Before the record routes: `/contacts/import` is no contact's page.
  const importing = importScreen(path);
  if (importing) return importing;
  const record = contactScreen(path) ?? leadScreen(path) ?? dealScreen(path) ?? sequenceScreen(path) ?? enrollmentScreen(path) ?? customObjectScreen(path);
  if (record) return record;
  if (matchRoute('/settings', path)) return <SettingsScreen />;
  if (matchRoute('/tasks', path)) return <TasksScreen />;
  // Home (Today) is the root: the hub serves the UI at `/` (and at its other screens' paths).
  if (path === '/') return <HomeScreen />;
  if (matchRoute('/products', path)) return <ProductsScreen />;
  if (matchRoute('/sync-issues', path)) return <SyncIssuesScreen />;
  if (matchRoute('/notes', path)) return <NotesScreen />;
  return <NotFoundScreen path={path} />;
}

export function App() {
  const { status, load } = useSession();
  const { path, navigate } = useRouter();
  // Bumped when a shortcut or the palette created something: the screen loads again to show it.
  const dataVersion = useCommands((s) => s.dataVersion);

  useEffect(() => {
    void load();
  }, [load]);

  // From the start, so a file the desktop app was opened with is not missed while the session loads.
  useEffect(() => listenForOpenedFiles(), []);
  // Deep links from the desktop shell, from the start too.
  useEffect(() => listenForOpenPaths(), []);

  // Signed-in people land on their day (Today); signed-out ones on the sign-in page.
  useEffect(() => {
    if (status === 'signed-out' && path !== '/login') navigate('/login', { replace: true });
    if (status === 'signed-in' && path === '/login') navigate('/', { replace: true });
  }, [status, path, navigate]);

  if (status === 'loading') return <p className="muted splash">Loading…</p>;
  if (status === 'signed-out') return <SignInScreen />;
  return (
    <AppShell>
      <ReminderWatcher />
      <Screen key={dataVersion} path={path} />
    </AppShell>
  );
}
