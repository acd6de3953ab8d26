// A form that cannot be taken back (close a table, leave it, cancel a tournament) asks first: its
// data-confirm says what will happen, and the form is sent only if the person agrees.
"use strict";
document.querySelectorAll("form[data-confirm]").forEach((form) => {
  form.addEventListener("submit", (event) => { if (!window.confirm(form.dataset.confirm)) event.preventDefault(); });
});
