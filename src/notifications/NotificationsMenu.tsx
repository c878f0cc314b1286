import { Link } from 'react-router-dom';
import { Dropdown } from '../header/Dropdown.tsx';
import { sanitizeHtml } from '../shell/sanitizeHtml.ts';
import { StrokeIcon } from '../shell/StrokeIcon.tsx';
import { formatNotificationDate } from './formatNotificationDate.ts';
import { useNotifications } from './useNotifications.ts';
import './NotificationsMenu.css';

export interface NotificationsMenuProps {
  /** The signed-in user's initials, shown beside each notification (NOTIF-02). */
  initials: string;
}

const ignore = () => undefined;

/** NOTIF-01..04, 08, 09: the notifications dropdown with its badge dot. */
export function NotificationsMenu({ initials }: NotificationsMenuProps) {
  const { unread, markAllRead, markRead } = useNotifications();
  const label = unread.length > 0 ? `Notifications, ${unread.length} unread` : 'Notifications';
  return (
    <Dropdown
      label={label}
      className="notifications-menu"
      trigger={
        <span className="bell">
          <StrokeIcon icon="bell" width={1.8} />
          {unread.length > 0 && <span className="badge-dot" role="img" aria-label="unread notifications" />}
        </span>
      }
    >
      {(close) => (
        <>
          <div className="notifications-head">
            <h2>All Notifications</h2>
            <button type="button" className="link-button" onClick={() => void markAllRead().catch(ignore)}>
              Mark All Read
            </button>
          </div>
          {unread.length === 0 ? (
            <p className="notifications-empty">No new notifications available.</p>
          ) : (
            <ul className="notifications-list">
              {unread.map((notification) => (
                <li key={notification.id} className="notification">
                  <span className="avatar" aria-hidden="true">
                    {initials}
                  </span>
                  <div className="notification-text">
                    {notification.link ? (
                      // Opening the record it is about reads the notification.
                      <Link
                        className="notification-message notification-link"
                        to={notification.link}
                        onClick={() => {
                          close();
                          void markRead(notification.id).catch(ignore);
                        }}
                        dangerouslySetInnerHTML={{ __html: sanitizeHtml(notification.message) }}
                      />
                    ) : (
                      <div
                        className="notification-message"
                        dangerouslySetInnerHTML={{ __html: sanitizeHtml(notification.message) }}
                      />
                    )}
                    <time dateTime={notification.created_at}>{formatNotificationDate(notification.created_at)}</time>
                  </div>
                  <button
                    type="button"
                    className="icon-button notification-read"
                    aria-label="Mark as read"
                    title="Mark as read"
                    onClick={() => void markRead(notification.id).catch(ignore)}
                  >
                    <StrokeIcon icon="check" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Dropdown>
  );
}
