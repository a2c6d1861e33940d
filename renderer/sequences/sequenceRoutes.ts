import { recordRoutes } from '../leads/recordRoutes.js';
import { SequencesScreen } from './SequencesScreen.js';
import { SequencePage } from './SequencePage.js';
import { SequenceForm } from './SequenceForm.js';

/** The screen for a /sequences path (templates are managed on the list screen), or null for any other path. */
export const sequenceScreen = recordRoutes('/sequences', { List: SequencesScreen, Page: SequencePage, Form: SequenceForm });
