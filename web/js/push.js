// Web Push on this device: the site's service worker (/push-sw.js), and opting this browser in or
// out (the account page). What is pushed, and to which of a player's browsers, is the server's
// (GET/PUT /accounts/me/push); this module only subscribes and hands the subscription over.

import { api } from "./api.js";

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && typeof window.Notification === "function";
}

// Registered on every page, so a push arrives whichever page was open last.
export async function register() {
  if (!supported()) return null;
  try { return await navigator.serviceWorker.register("/push-sw.js"); } catch { return null; }
}

// This browser's subscription, or null.
export async function current() {
  const registration = await register();
  return registration ? registration.pushManager.getSubscription() : null;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// Ask permission, subscribe with the server's key, and tell the server; the subscription it keeps.
export async function optIn(publicKey) {
  if (!supported()) throw new Error("This browser cannot receive push notifications.");
  if (await Notification.requestPermission() !== "granted") {
    throw new Error("Notifications are blocked for this site: allow them in the browser's site settings.");
  }
  const registration = await register();
  if (!registration) throw new Error("The site's service worker could not be registered.");
  await navigator.serviceWorker.ready;
  let subscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  } catch (err) {
    throw new Error(`This browser could not subscribe at its push service (${err.message || err}).`);
  }
  return api.addPushSubscription(subscription.toJSON());
}

// The server's id of a subscription: the first 16 hex digits of SHA-256 over its endpoint (events/push.py).
export async function idOf(subscription) {
  if (!subscription) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(subscription.endpoint));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
}

// Opt this browser out: its subscription ends here and on the server (`id`: the server's id of it).
export async function optOut(id) {
  const subscription = await current();
  if (subscription) await subscription.unsubscribe();
  if (id) await api.removePushSubscription(id);
}
