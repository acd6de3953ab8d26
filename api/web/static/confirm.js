// A form that cannot be taken back (close a table, leave it, cancel a tournament) asks first: its
// data-confirm says what will happen, and the form is sent only if the person agrees.
"use strict";
// Listened for on the document, so that a form drawn anew (a table's, as seats change) asks too.
document.addEventListener("submit", (event) => {
  const form = event.target.closest && event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
