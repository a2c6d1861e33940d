import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useRouter } from '../router/routerStore.js';
import type { SearchResult, SearchResultType } from '../../shared/resources/recordSearch.js';
import { listedShortcut, matchingCommands, PALETTE_SHORTCUT, shortcutLabel, type Command, type Shortcut } from './commands.js';
import { useCommands } from './commandStore.js';
import { useModalDialog } from './useModalDialog.js';
import { formatMoney } from '../../shared/money.js';
import { useRecordSearch, type RecordSearchState } from './useRecordSearch.js';
import { phoneOrText } from '../records/phoneFormat.js';

/** One line of the list: a record to open or a command to run. */
interface Option {
  /** Its element id, for aria-activedescendant. */
  id: string;
  label: string;
  detail: string | null;
  run(): void;
}

interface Group {
  id: string;
  label: string;
  options: Option[];
}

const TYPE_LABELS: Record<SearchResultType, string> = { contact: 'Contacts', lead: 'Leads', deal: 'Deals' };
const LISTBOX_ID = 'command-palette-options';

/**
 * The command palette (Ctrl/⌘+K): jump to a contact, lead or deal by name,
 * email or phone, or run a command. A modal dialog whose input keeps the
 * focus; ↑/↓ move through the options (aria-activedescendant), Enter opens
 * one, Escape closes.
 */
export function CommandPalette() {
  const close = useCommands((s) => s.closePalette);
  const navigate = useRouter((s) => s.navigate);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useModalDialog(() => input.current);
  const search = useRecordSearch(text);

  const openRecord = (result: SearchResult) => {
    close();
    navigate(result.path);
  };
  const runCommand = (command: Command) => {
    close();
    command.run();
  };
  const groups = paletteGroups(text, search.results, openRecord, runCommand);
  const options = groups.flatMap((g) => g.options);
  const activeIndex = Math.min(active, options.length - 1);
  const activeId = options[activeIndex]?.id;
  // The records shown answer an older text while the newer one is on its way.
  const stale = text.trim() !== '' && search.text !== text.trim();
  // Enter pressed before the answer came: it opens the best match of the answer, not of the older list.
  const [enterPending, setEnterPending] = useState(false);

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const chosen = enterPending && !stale ? options[activeIndex] : undefined;
  useEffect(() => {
    if (chosen) chosen.run();
  }, [chosen]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count > 0) setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (stale) setEnterPending(true);
      else options[activeIndex]?.run();
    } else if (event.key === 'Tab') {
      // The input is the dialog's one stop: Tab must not wander off to the browser's own controls.
      event.preventDefault();
    }
  };
  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) close();
  };

  return (
    <dialog ref={dialog} className="command-palette" aria-label="Command palette" onCancel={(e) => (e.preventDefault(), close())} onClick={onBackdrop}>
      <div className="palette-body">
        <input
          ref={input} type="text" role="combobox" aria-label="Search records and commands" placeholder="Find a contact, lead or deal by name, email or phone — or a command"
          aria-expanded={options.length > 0} aria-controls={LISTBOX_ID} aria-autocomplete="list" aria-activedescendant={activeId}
          autoComplete="off" spellCheck={false} value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setEnterPending(false);
          }}
          onKeyDown={onKeyDown}
        />
        <div id={LISTBOX_ID} role="listbox" aria-label="Results" aria-busy={stale} className={stale ? 'palette-options stale' : 'palette-options'}>
          {groups.map((group) => (
            <div key={group.id} role="group" aria-labelledby={`${group.id}-label`} className="palette-group">
              <div id={`${group.id}-label`} role="presentation" className="palette-group-label">{group.label}</div>
              {group.options.map((option) => (
                <div
                  key={option.id} id={option.id} role="option" aria-selected={option.id === activeId} className="palette-option"
                  onMouseMove={() => setActive(options.indexOf(option))} onClick={option.run}
                >
                  <span className="palette-label">{option.label}</span>
                  {option.detail && <span className="palette-detail">{option.detail}</span>}
                </div>
              ))}
            </div>
          ))}
        </div>
        <p className="palette-footer muted">
          <span role="status">{statusText(text, search)}</span>
          <span aria-hidden="true">↑↓ move · Enter open · Esc close · {shortcutLabel(PALETTE_SHORTCUT)} palette</span>
        </p>
      </div>
    </dialog>
  );
}

/** A result's second line; a deal's amount formatted as every other screen has it ("Northwind Traders · €12,500.50"). */
function detailOf(result: SearchResult): string | null {
  const amount = result.amount ? formatMoney(result.amount.value, result.amount.currency) : null;
  return [result.detail && phoneOrText(result.detail), amount].filter(Boolean).join(' · ') || null;
}

/**
 * The options under their headings. Records keep the server's ranking:
 * each type's group comes where its best record ranks, so Enter opens the
 * best match. Commands come first when there is no text or a command's name
 * begins with it ("new t"), else after the records.
 */
function paletteGroups(text: string, results: SearchResult[], openRecord: (r: SearchResult) => void, runCommand: (c: Command) => void): Group[] {
  const typed = text.trim();
  const records: Group[] = [];
  for (const result of typed === '' ? [] : results) {
    let group = records.find((g) => g.id === `palette-${result.type}`);
    if (!group) records.push((group = { id: `palette-${result.type}`, label: TYPE_LABELS[result.type], options: [] }));
    group.options.push({ id: `palette-${result.type}-${result.id}`, label: result.name || '(no name)', detail: detailOf(result), run: () => openRecord(result) });
  }
  const commands = matchingCommands(typed).map((command) => ({
    id: `palette-command-${command.id}`, label: command.title, detail: shortcutText(listedShortcut(command)), run: () => runCommand(command),
  }));
  if (commands.length === 0) return records;
  const group: Group = { id: 'palette-commands', label: 'Commands', options: commands };
  const commandFirst = typed === '' || commands.some((c) => c.label.toLowerCase().startsWith(typed.toLowerCase()));
  return commandFirst ? [group, ...records] : [...records, group];
}

function statusText(text: string, search: RecordSearchState): string {
  if (text.trim() === '') return 'Type a name, email or phone number.';
  if (search.status === 'failed') return 'The search failed; try again.';
  if (search.status !== 'done' || search.text !== text.trim()) return 'Searching…';
  const n = search.results.length;
  return n === 0 ? 'No records match.' : `${n} record${n === 1 ? '' : 's'} found.`;
}

const shortcutText = (shortcut: Shortcut | undefined) => (shortcut ? shortcutLabel(shortcut) : null);
