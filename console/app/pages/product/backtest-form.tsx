import type { ProductVersion } from '@cropcover/contracts';
import { useState } from 'preact/hooks';
import { startProductBacktest } from '../../api/products';
import { consolePath, navigate } from '../../router';
import { type BacktestForm, backtestRequest, blankBacktestForm } from './backtest-request';

// Asking the API what this version would have paid at many locations over past seasons (TERM-SHEETS.md
// "Backtesting a product"). The job runs off the request; its page follows it, and its address can be
// reloaded and shared. Like the programme's as-if losses, it computes and changes nothing of the book.

export const ProductBacktestForm = ({ version }: { version: ProductVersion }) => {
  const [form, setForm] = useState<BacktestForm>(() => blankBacktestForm(new Date().toISOString().slice(0, 10)));
  const [problem, setProblem] = useState<string | undefined>();
  const [asking, setAsking] = useState(false);
  const field =
    (name: keyof BacktestForm) =>
    (event: { currentTarget: { value: string } }): void =>
      setForm((current) => ({ ...current, [name]: event.currentTarget.value }));
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const answer = backtestRequest(version, form);
    if (answer.request === undefined) {
      setProblem(answer.problem);
      return;
    }
    setAsking(true);
    setProblem(undefined);
    try {
      const job = await startProductBacktest(answer.request);
      navigate(consolePath(`/products/backtests/${encodeURIComponent(job.job_id)}`));
    } catch (error) {
      setProblem(`The API refused the backtest: ${(error as Error).message}`);
      setAsking(false);
    }
  };
  return (
    <section aria-labelledby="backtest-heading" class="product-backtest">
      <h2 id="backtest-heading">Backtest</h2>
      <p>
        What version {version.version} would have paid at each location in each past season, read from the source as a
        policy there reads it; with the losses observed there, how well its payouts follow them.
      </p>
      <form class="backtest-form" aria-label="Backtest the product" onSubmit={submit}>
        <label>
          Source id
          <input name="source_id" type="text" autocomplete="off" value={form.sourceId} onInput={field('sourceId')} />
        </label>
        <label>
          Locations, one a line
          <textarea name="locations" rows={4} value={form.locations} onInput={field('locations')} />
        </label>
        <fieldset>
          <legend>Seasons starting in</legend>
          <label>
            From
            <input name="from" type="text" inputMode="numeric" size={6} value={form.from} onInput={field('from')} />
          </label>
          <label>
            to
            <input name="to" type="text" inputMode="numeric" size={6} value={form.to} onInput={field('to')} />
          </label>
        </fieldset>
        <label>
          Observed losses (optional), one a line: location season loss ratio
          <textarea name="outcomes" rows={3} value={form.outcomes} onInput={field('outcomes')} />
        </label>
        <label>
          Loss threshold (with observed losses)
          <input
            name="loss_threshold"
            type="text"
            inputMode="decimal"
            size={8}
            value={form.lossThreshold}
            onInput={field('lossThreshold')}
          />
        </label>
        <button type="submit" disabled={asking}>
          Run the backtest
        </button>
      </form>
      {problem && (
        <p role="alert" class="problem">
          {problem}
        </p>
      )}
    </section>
  );
};
