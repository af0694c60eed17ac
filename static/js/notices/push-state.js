// What this browser can do with the site's messages (Web Push), from what it offers: pure, so
// that the page's script and its tests (tests/js/push-state.test.js) read the same rules.

// The page's situation: "unsupported" (no service worker or no push in this browser),
// "home-screen" (an iPhone or iPad: Safari offers push only to a web app opened from the home
// screen), "blocked" (the player refused notifications to this site), or "ready".
export function pushState({
  serviceWorker,
  pushManager,
  notification,
  permission,
  appleMobile,
  standalone,
}) {
  if (appleMobile && !standalone) return "home-screen";
  if (!serviceWorker || !pushManager || !notification) return "unsupported";
  if (permission === "denied") return "blocked";
  return "ready";
}

// The site's VAPID public key (base64url, as the server writes it) as PushManager.subscribe's
// applicationServerKey takes it.
export function applicationServerKey(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

// An iPhone or iPad, whose browsers are all Safari's engine (an iPad may call itself a Mac:
// then it has a touch screen).
export function isAppleMobile(userAgent, maxTouchPoints) {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}
