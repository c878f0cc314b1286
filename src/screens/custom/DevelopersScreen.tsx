import { MODULE_ACTIONS, type ActionName, type ModuleKey } from '../../generated/permissions.ts';
import { AREAS } from '../../generated/routes.ts';
import { usePermissions } from '../../permissions/index.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import '../screens.css';
import { ColumnHeadings } from '../shared/ColumnHeadings.tsx';

/** The manifest's modules as the console runs them: routes, offered actions and what the signed-in user holds. */
export default function DevelopersScreen(_props: ScreenProps) {
  const { permissions, loaded } = usePermissions();
  const granted = (module: ModuleKey): ActionName[] =>
    Object.keys(permissions?.[module]?.actions ?? {}) as ActionName[];
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>Modules</ScreenHeading>
      {!loaded && <p role="status">Loading your permissions…</p>}
      {AREAS.map((area) => {
        const modules = [...new Set<ModuleKey>([area.module, ...area.routes.map((route) => route.module)])];
        return (
          // A region of its own that scrolls sideways on a narrow screen, reachable from the keyboard.
          <div key={area.module} className="table-region" role="region" aria-label={area.label} tabIndex={0}>
            <table className="data-table">
              <caption>
                {area.label} (/{area.path}, guard: {area.guard})
              </caption>
              <ColumnHeadings names={['Module', 'Routes', 'Actions offered', 'Your permissions']} />
              <tbody>
                {modules.map((module) => {
                  const mine = granted(module);
                  return (
                    <tr key={module}>
                      <th scope="row">
                        <code>{module}</code>
                      </th>
                      <td>
                        <ul className="plain-list">
                          {area.routes
                            .filter((route) => route.module === module)
                            .map((route) => (
                              <li key={route.path}>
                                <code>{route.path}</code> ({route.action} → {route.screen})
                              </li>
                            ))}
                        </ul>
                      </td>
                      <td>{MODULE_ACTIONS[module].join(', ')}</td>
                      <td>{mine.length > 0 ? mine.join(', ') : 'none'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        );
      })}
    </section>
  );
}
