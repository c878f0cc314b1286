import { queryClient } from '../../query/queryClient.ts';
import type { ScreenPrefetch, ScreenProps } from '../ScreenProps.ts';
import { ScreenHeading } from '../shared/ScreenHeading.tsx';
import { ResourceList } from './list/ResourceList.tsx';
import { prefetchList } from './list/useListPage.ts';
import '../screens.css';

/** A list's views and first page load with the move to it (see ScreenPrefetch). */
export const prefetch: ScreenPrefetch = (resource, search) => prefetchList(queryClient, resource, search);

/** The list of any resource, from its manifest description alone. */
export default function ListScreen({ resource }: ScreenProps) {
  const list = resource.list;
  if (!list) {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <ScreenHeading>{resource.label}</ScreenHeading>
        <p>This module has no list.</p>
      </section>
    );
  }
  return <ResourceList resource={resource} list={list} />;
}
