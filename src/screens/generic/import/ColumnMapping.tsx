import type { ImportField, UploadedFile } from './importTypes.ts';
import { ColumnHeadings } from '../../shared/ColumnHeadings.tsx';

export interface ColumnMappingProps {
  file: UploadedFile;
  mapping: Record<string, string | null>;
  onChange: (mapping: Record<string, string | null>) => void;
}

/** Each column of the file beside the field it fills, matched by name or title and changeable; key fields say so. */
export function ColumnMapping({ file, mapping, onChange }: ColumnMappingProps) {
  const label = (field: ImportField) =>
    `${field.title}${field.key ? ' (matches records)' : field.required ? ' (required)' : ''}`;
  return (
    <table className="data-table import-mapping">
      <caption>Columns of {file.file_name}</caption>
      <ColumnHeadings names={['Column in the file', 'Field']} />
      <tbody>
        {file.headings.map((heading, index) => (
          <tr key={`${heading}-${index}`}>
            <th scope="row">{heading}</th>
            <td>
              <select
                aria-label={`Field for column ${heading}`}
                value={mapping[heading] ?? ''}
                onChange={(event) => onChange({ ...mapping, [heading]: event.target.value || null })}
              >
                <option value="">Leave out</option>
                {file.fields.map((field) => (
                  <option key={field.name} value={field.name}>
                    {label(field)}
                  </option>
                ))}
              </select>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
