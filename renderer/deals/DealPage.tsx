import { useState } from 'react';
import type { Deal } from '../../shared/resources/deal.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { Timeline } from '../timeline/Timeline.js';
import { formatDay, formatWhen } from '../tasks/taskDates.js';
import { TagsEditor } from '../tags/TagsEditor.js';
import { CollaboratorsPanel } from '../collaborators/CollaboratorsPanel.js';
import { useUsers } from '../collaborators/useUsers.js';
import { DetailRow, formatCustomValue, RecordProblemMessage } from '../leads/Details.js';
import { useNamedOptions } from '../leads/useNamedOptions.js';
import { useRecord } from '../leads/useRecord.js';
import { ConversionSummary } from '../leads/ConversionSummary.js';
import { AssociatedContacts } from './AssociatedContacts.js';
import { OrderPanel } from '../orders/OrderPanel.js';
import { CopyButton } from '../shell/CopyButton.js';
import { formatMoney } from './money.js';
import { StageSelect } from './StageSelect.js';
import { useLossReason } from './LossReason.js';
import { useContactNames } from './useContactNames.js';
import { usePipelines } from './usePipelines.js';
import { refusalText } from '../api/formErrors.js';
import { ConflictPanel } from '../sync/ConflictPanel.js';
import { RecordHeader } from '../records/RecordHeader.js';
import { RecordSection } from '../records/RecordSection.js';
import { OwnerField } from '../owners/OwnerField.js';
import { winLikelihood } from '../../shared/resources/winLikelihood.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/** One deal, laid out as a contact's page is (ContactPage): name, value, stage (changeable here) and actions; the timeline; details, contacts, order, tags and collaborators beside it. */
export function DealPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const { record: deal, problem, setRecord, reload } = useRecord<Deal>(`/v2/deals/${id}`, { type: 'deal', id });
  const pipelines = usePipelines();
  const users = useUsers();
  const sources = useNamedOptions('/v2/deal_sources');
  const names = useContactNames([deal?.contact_id ?? null, deal?.organization_id ?? null]);
  const [moveError, setMoveError] = useState<string | null>(null);
  const lossReason = useLossReason();

  if (problem) return <RecordProblemMessage problem={problem} noun="deal" listPath="/deals" />;
  if (!deal) return <section className="screen"><p className="muted">Loading…</p></section>;

  // Asked in the app's dialog, which also shows a refusal (the record gone meanwhile, say).
  const remove = () => askToConfirm({
    title: `Delete ${deal.name}?`, detail: 'This cannot be undone.', confirm: 'Delete', doing: 'Deleting…',
    action: async () => {
      await api.remove(`/v2/deals/${id}`);
      navigate('/deals');
    },
  });
  // Into a lost stage only once the rep says why (the select shows the saved stage until then); the reason goes in the same PUT.
  const moveTo = async (stageId: number) => {
    const answer = await lossReason.ask(pipelines.stages.find((s) => s.id === stageId), `Why was ${deal.name} lost?`);
    if (!answer) return;
    try {
      setRecord(await api.update<Deal>(`/v2/deals/${id}`, { stage_id: stageId, ...answer }));
      setMoveError(null);
    } catch (err) {
      setMoveError(refusalText(err, 'The deal could not be moved.'));
    }
  };

  const stage = pipelines.stages.find((s) => s.id === deal.stage_id);
  const pipeline = pipelines.pipelines.find((p) => p.id === stage?.pipeline_id);
  const userName = (userId: number | null) => users.find((u) => u.id === userId)?.name;
  const source = sources.find((s) => s.id === deal.source_id)?.name;
  // The rows of the details below: stage, owner and added on always, the others when set.
  const details = 3 + [deal.contact_id, deal.organization_id, source, deal.estimated_close_date, deal.customized_win_likelihood, deal.last_stage_change_at, deal.last_activity_at]
    .filter((v) => v !== null && v !== undefined && v !== '').length + Object.keys(deal.custom_fields).length;
  const contactLink = (contactId: number | null) => contactId !== null && <Link to={`/contacts/${contactId}`}>{names.get(contactId) ?? '…'}</Link>;
  return (
    <section className="screen record-page deal-page">
      <RecordHeader
        kind={`Deal${pipeline ? ` · ${pipeline.name}` : ''}`}
        name={deal.name}
        badges={<p className="deal-value big">{formatMoney(deal.value, deal.currency)} {deal.hot && <span className="badge hot">Hot</span>}</p>}
        reach={<>
          {deal.contact_id !== null && <span className="reach-item"><span className="muted">Contact</span> {contactLink(deal.contact_id)}</span>}
          {deal.organization_id !== null && deal.organization_id !== deal.contact_id && (
            <span className="reach-item"><span className="muted">Organization</span> {contactLink(deal.organization_id)}</span>
          )}
        </>}
        actions={<>
          <div className="stage-move">
            <StageSelect label="Stage" value={deal.stage_id} onChange={(stageId) => void moveTo(stageId)} {...pipelines} />
            {moveError && <span className="field-error" role="alert">{moveError}</span>}
            {lossReason.dialog}
          </div>
          <Link to={`/deals/${id}/edit`} className="button primary">Edit</Link>
          {/* Not a field: an address to BCC on emails about the deal, so they land on its timeline. */}
          {deal.dropbox_email && <CopyButton text={deal.dropbox_email} label="Copy BCC address" />}
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </>} />
      <ConflictPanel type="deal" id={id} onResolved={reload} />
      <ConversionSummary query={{ deal_id: id }} />
      <div className="record-layout">
        <div className="record-main">
          <Timeline resourceType="deal" resourceId={id} phone="" />
        </div>
        <aside className="record-side" aria-label={`About ${deal.name}`}>
          <RecordSection title="Details" count={details} className="details-section">
            <dl className="details">
              <DetailRow label="Stage">{stage ? `${stage.name} (${winLikelihood(stage.category, stage.likelihood)}%)` : '…'}</DetailRow>
              {deal.contact_id !== null && <DetailRow label="Contact">{contactLink(deal.contact_id)}</DetailRow>}
              {deal.organization_id !== null && <DetailRow label="Organization">{contactLink(deal.organization_id)}</DetailRow>}
              <OwnerField path={`/v2/deals/${id}`} record={deal} onSaved={setRecord} />
              {source && <DetailRow label="Source">{source}</DetailRow>}
              {deal.estimated_close_date && <DetailRow label="Expected close date">{formatDay(deal.estimated_close_date)}</DetailRow>}
              {deal.customized_win_likelihood !== null && <DetailRow label="Win likelihood">{deal.customized_win_likelihood}%</DetailRow>}
              {deal.last_stage_change_at && (
                <DetailRow label="Stage changed">{formatWhen(deal.last_stage_change_at)}{userName(deal.last_stage_change_by_id) ? ` by ${userName(deal.last_stage_change_by_id)}` : ''}</DetailRow>
              )}
              {deal.last_activity_at && <DetailRow label="Last activity">{formatWhen(deal.last_activity_at)}</DetailRow>}
              <DetailRow label="Added on">{formatDay(deal.added_on)}</DetailRow>
              {Object.entries(deal.custom_fields).map(([name, value]) => <DetailRow key={name} label={name}>{formatCustomValue(value)}</DetailRow>)}
            </dl>
          </RecordSection>
          <AssociatedContacts deal={deal} />
          {/* The order panel is a named region of its own ("Order"): this section only folds it. */}
          <RecordSection title="Order" label={null} className="order-section">
            <OrderPanel dealId={id} />
          </RecordSection>
          <TagsEditor resourceType="deal" path={`/v2/deals/${id}`} tags={deal.tags} onSaved={setRecord} />
          <CollaboratorsPanel resourceType="deal" resourceId={id} />
        </aside>
      </div>
    </section>
  );
}
