const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

/** NOTIF-02: day-month and 12-hour time in local time, e.g. "21 Nov, 04:05 PM"; empty for an unreadable date. */
export function formatNotificationDate(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  return `${two(date.getDate())} ${MONTHS[date.getMonth()]}, ${two(hours % 12 || 12)}:${two(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}
