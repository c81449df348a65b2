/** Width of the permanent side navigation, fixed by the spec (section 9). */
export const SIDEBAR_WIDTH = 230;
