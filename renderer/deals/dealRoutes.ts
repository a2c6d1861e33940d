import { recordRoutes } from '../leads/recordRoutes.js';
import { DealsScreen } from './DealsScreen.js';
import { DealPage } from './DealPage.js';
import { DealForm } from './DealForm.js';

/** The screen for a /deals path, or null for any other path. */
export const dealScreen = recordRoutes('/deals', { List: DealsScreen, Page: DealPage, Form: DealForm });
