import { ColumnsMenu, type ColumnsMenuProps } from './ColumnsMenu.tsx';
import { ViewsMenu, type ViewsMenuProps } from './ViewsMenu.tsx';
import './listCustomise.css';

/** The Views and Columns menus of a list: a chunk of their own, loaded after the list's first paint. */
export interface ListCustomiseProps {
  views: ViewsMenuProps | null;
  columns: ColumnsMenuProps;
}

export default function ListCustomise({ views, columns }: ListCustomiseProps) {
  return (
    <div className="list-customise">
      {views && <ViewsMenu {...views} />}
      <ColumnsMenu {...columns} />
    </div>
  );
}
