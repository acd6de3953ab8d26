// A form refused by the server comes back with its page: what the person had entered comes back too.
// Each form marked data-keep saves its fields (not its CSRF token) for this tab as it is sent; when the
// page that answers shows an error, they are put back; any other page forgets them.
"use strict";
(function () {
  const refused = document.querySelector(".error[role=alert]");
  document.querySelectorAll("form[data-keep]").forEach((form) => {
    const key = "dh-form-" + form.dataset.keep;
    const saved = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    if (refused && saved) restore(form, JSON.parse(saved));
    form.addEventListener("submit", () => {
      const fields = {};
      for (const field of form.elements) {
        if (!field.name || field.name === "csrf" || field.type === "hidden") continue;
        fields[field.name + (field.type === "checkbox" ? ":" + field.value : "")] =
          field.type === "checkbox" ? field.checked : field.value;
      }
      sessionStorage.setItem(key, JSON.stringify(fields));
    });
  });

  function restore(form, fields) {
    for (const field of form.elements) {
      if (!field.name || field.name === "csrf" || field.type === "hidden") continue;
      const name = field.name + (field.type === "checkbox" ? ":" + field.value : "");
      if (!(name in fields)) continue;
      if (field.type === "checkbox") field.checked = Boolean(fields[name]);
      else field.value = fields[name];
      field.dispatchEvent(new Event("change", { bubbles: true })); // what depends on it follows
    }
  }
})();
