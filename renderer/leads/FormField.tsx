// The lead and deal forms' field and actions, which every form now shares from renderer/forms/.
export { FormActions, FormField } from '../forms/FormField.js';
