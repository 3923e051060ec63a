// Sets the theme before first paint (a blocking classic script: the CSP refuses inline ones).
// lib/theme.svelte.ts keeps it current afterwards; the key and values are the same.
(function () {
  var choice = null;
  try {
    choice = localStorage.getItem('mvstudio.theme');
  } catch {
    // No storage (a locked-down profile): follow the system.
  }
  var dark =
    choice === 'dark' ||
    (choice !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
})();
