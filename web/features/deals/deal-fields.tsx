import { limits } from '../../../contract/limits';
import { TextareaField, TextField } from '../../components/ui/input';

/** A deal's fields as typed: what Create Deal and Edit Deal ask for. */
export type DealFieldValues = { title: string; description: string; budget: string; timeline: string };

export type DealFieldProblems = Partial<Record<keyof DealFieldValues, string | string[]>>;

type DealFieldsProps = {
  values: DealFieldValues;
  /** What the contract's schema (or the server) refused, by field. */
  problems: DealFieldProblems;
  onChange: (field: keyof DealFieldValues, value: string) => void;
};

/** Title, description, budget and timeline, all required: the fields a deal is created and edited with. */
export function DealFields({ values, problems, onChange }: DealFieldsProps) {
  const set = (field: keyof DealFieldValues) => (event: { target: { value: string } }) =>
    onChange(field, event.target.value);
  return (
    <>
      <TextField
        label="Title"
        error={problems.title}
        name="title"
        required
        maxLength={limits.deal.title.max}
        value={values.title}
        onChange={set('title')}
        placeholder="e.g. Distribution partner for organic coffee"
      />
      <TextareaField
        label="Description"
        error={problems.description}
        name="description"
        required
        rows={4}
        maxLength={limits.deal.description.max}
        value={values.description}
        onChange={set('description')}
        placeholder="What is the deal about, and what are you looking for?"
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Budget ($)"
          error={problems.budget}
          name="budget"
          type="number"
          inputMode="decimal"
          required
          min={0.01}
          step={0.01}
          value={values.budget}
          onChange={set('budget')}
          placeholder="5000.00"
        />
        <TextField
          label="Timeline"
          error={problems.timeline}
          name="timeline"
          required
          maxLength={limits.deal.timeline.max}
          value={values.timeline}
          onChange={set('timeline')}
          placeholder="e.g. 3 months"
        />
      </div>
    </>
  );
}
