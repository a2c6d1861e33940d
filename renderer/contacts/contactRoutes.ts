import { recordRoutes } from '../leads/recordRoutes.js';
import { ContactsScreen } from './ContactsScreen.js';
import { ContactPage } from './ContactPage.js';
import { ContactForm } from './ContactForm.js';

/** The screen for a /contacts path, or null for any other path (imports under /contacts are matched before it). */
export const contactScreen = recordRoutes('/contacts', { List: ContactsScreen, Page: ContactPage, Form: ContactForm });
