import { createElement } from 'react';
import { matchRoute } from '../router/routerStore.js';
import { recordRoutes } from '../leads/recordRoutes.js';
import { DealsScreen } from './DealsScreen.js';
import { DealPage } from './DealPage.js';
import { DealForm } from './DealForm.js';
import { DealsListScreen } from './DealsListScreen.js';

const boardAndRecords = recordRoutes('/deals', { List: DealsScreen, Page: DealPage, Form: DealForm });

/** The screen for a /deals path (the board, /deals/list, a deal), or null for any other path. */
export const dealScreen = (path: string) => (matchRoute('/deals/list', path) ? createElement(DealsListScreen) : boardAndRecords(path));
