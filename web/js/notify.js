// Telling the player it is their turn: a browser notification (with permission) and the tab title.

const BASE_TITLE = "Tash-Kalar Arena";

export function supported() {
  return typeof window.Notification === "function";
}

export function permission() {
  return supported() ? Notification.permission : "unsupported";
}

export async function ask() {
  if (!supported()) return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

export function turnStarted(text) {
  document.title = `● Your turn · ${BASE_TITLE}`;
  if (permission() !== "granted") return;
  try {
    const n = new Notification("Tash-Kalar: your turn", { body: text, tag: "tash-kalar-turn", icon: "/web/icon.svg" });
    n.onclick = () => { window.focus(); n.close(); };
  } catch {
    // some browsers only allow notifications from a service worker: the title still tells
  }
}

export function turnOver(title) {
  document.title = title ? `${title} · ${BASE_TITLE}` : BASE_TITLE;
}
