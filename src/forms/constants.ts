/** Form errors appear this long after the last change, blur or submit (FORM-02, spec section 9). */
export const FORM_ERROR_DEBOUNCE_MS = 200;
