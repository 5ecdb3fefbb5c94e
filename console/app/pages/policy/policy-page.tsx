import type { Policy, PolicyTriggerCourses, TriggerEvaluationHistoryItem } from '@cropcover/contracts';
import { getPolicy, listAllEvaluations, listTriggerCourses } from '../../api/policies';
import { useResource } from '../../api/use-resource';
import { calendarDate, money, period, timestamp, words } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';
import { CoverSection } from './cover-section';

interface PolicyPageData {
  readonly policy: Policy;
  readonly courses: PolicyTriggerCourses;
  readonly evaluations: TriggerEvaluationHistoryItem[];
}

/** The policy, its covers' courses (each day's reading and aggregate, from the cover's frozen source and
 *  location) and its evaluations, side by side. */
const loadPolicyPage = async (policyId: string, signal: AbortSignal): Promise<PolicyPageData> => {
  const [policy, courses, evaluations] = await Promise.all([
    getPolicy(policyId, signal),
    listTriggerCourses(policyId, signal),
    listAllEvaluations(policyId, signal),
  ]);
  return { policy, courses, evaluations };
};

export const PolicyPage = ({ policyId }: { policyId: string }) => {
  const data = useResource(policyId, (signal) => loadPolicyPage(policyId, signal));
  return (
    <>
      <h1 tabIndex={-1}>Policy {policyId}</h1>
      <p>
        <Link href={consolePath(`/policies/${encodeURIComponent(policyId)}/audit`)}>
          Audit: its events, each proven against the signed log
        </Link>
      </p>
      <Loaded resource={data} what="the policy">
        {({ policy, courses, evaluations }) => (
          <>
            <PolicySummary policy={policy} />
            {courses.covers.map((course) => (
              <CoverSection
                key={course.peril}
                course={course}
                trigger={policy.triggers.find((trigger) => trigger.peril === course.peril)}
                evaluations={evaluations.filter((evaluation) => evaluation.peril === course.peril)}
                currency={policy.currency}
              />
            ))}
          </>
        )}
      </Loaded>
    </>
  );
};

const PolicySummary = ({ policy }: { policy: Policy }) => (
  <dl class="summary" data-policy-status={policy.status}>
    <dt>Status</dt>
    <dd>
      <span class={`status-badge status-${policy.status}`}>{policy.status}</span>
    </dd>
    <dt>Farm</dt>
    <dd>{policy.farm_name ? `${policy.farm_name} (${policy.farm_id})` : policy.farm_id}</dd>
    <dt>Field</dt>
    <dd>
      {policy.field_name ? `${policy.field_name} (${policy.field_id})` : policy.field_id}
      {policy.field_area_ha !== undefined && `, ${policy.field_area_ha} ha`}
      {policy.field_location && `, at ${policy.field_location}`}
    </dd>
    <dt>Crop</dt>
    <dd>{policy.crop_type ?? '—'}</dd>
    <dt>Perils</dt>
    <dd>{policy.perils.map(words).join(', ')}</dd>
    <dt>Sum insured</dt>
    <dd>{money(policy.sum_insured, policy.currency)}</dd>
    <dt>Premium</dt>
    <dd>{money(policy.premium, policy.currency)}</dd>
    <dt>Term</dt>
    <dd>{period(policy.term_start, policy.term_end)}</dd>
    <dt>Issued</dt>
    <dd>{timestamp(policy.issued_at)}</dd>
    <dt>Next monitoring</dt>
    <dd>{policy.next_monitoring_date ? calendarDate(policy.next_monitoring_date) : 'not monitored'}</dd>
    <dt>Environment</dt>
    <dd>{policy.environment}</dd>
  </dl>
);
