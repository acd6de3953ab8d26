// Copy buttons: a button with data-copy="ID" copies the text (or value) of element ID.
"use strict";
(function () {
  document.querySelectorAll("button[data-copy]").forEach((button) => {
    const id = button.dataset.copy;
    const said = document.querySelector(`[data-copied="${id}"]`);
    button.addEventListener("click", async () => {
      const source = document.getElementById(id);
      const text = "value" in source ? source.value
        : Array.from(source.querySelectorAll("code")).map((c) => c.textContent).join("\n") || source.textContent;
      try {
        await navigator.clipboard.writeText(text);
        if (said) said.textContent = "Copied.";
      } catch (e) {
        if (said) said.textContent = "Could not copy: select the text and copy it yourself.";
      }
    });
  });
})();
