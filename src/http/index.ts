export {
  http,
  type ChangeOptions,
  type QueryParams,
  type RequestOptions,
  type UploadOptions,
  type DownloadOptions,
  type ProgressOptions,
  type ProgressResult,
} from './http.ts';
export { ApiError, isApiError, type ShownByCaller } from './ApiError.ts';
