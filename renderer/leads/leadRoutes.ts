import { LeadsScreen } from './LeadsScreen.js';
import { LeadPage } from './LeadPage.js';
import { LeadForm } from './LeadForm.js';
import { recordRoutes } from './recordRoutes.js';

/** The screen for a /leads path, or null for any other path. */
export const leadScreen = recordRoutes('/leads', { List: LeadsScreen, Page: LeadPage, Form: LeadForm });
