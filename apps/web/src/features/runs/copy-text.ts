/**
 * Copies text to the clipboard. The Clipboard API exists only on secure origins, and a
 * self-hosted install is often plain http on a LAN, so the old selection copy is the fallback.
 * Resolves to whether the text was copied.
 */
export async function copyText(text: string): Promise<boolean> {
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (clipboard) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, page not focused): try the fallback below.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    // Deprecated but still the only way on insecure origins.
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
