export interface ModuleFinderProps {
  value: string;
  onChange: (value: string) => void;
}

/** The box that narrows a long list of modules to those whose name holds what is typed. */
export function ModuleFinder({ value, onChange }: ModuleFinderProps) {
  return (
    <div className="field">
      <input
        type="search"
        aria-label="Find a module"
        placeholder="Find a module"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
