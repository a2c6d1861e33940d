import type { ReactElement } from 'react';
import { matchRoute } from '../router/routerStore.js';
import { EnrollmentsScreen } from './EnrollmentsScreen.js';
import { EnrollmentPage } from './EnrollmentPage.js';

/** The screen for an /enrollments path (enrollments start from a lead's or contact's page), or null for any other path. */
export function enrollmentScreen(path: string): ReactElement | null {
  if (matchRoute('/enrollments', path)) return <EnrollmentsScreen />;
  const page = matchRoute('/enrollments/:id', path);
  return page ? <EnrollmentPage key={page.id} id={Number(page.id)} /> : null;
}
