/* Scanroom 3D block loader. Shows the poster; loads the viewer (an iframe of /embed/{id}) only when the
   shopper asks for it (click or tap on the poster, or the block becoming the active slide of a media
   gallery), and follows the selected variant. No dependencies; budget: under 2 KB gzipped. */
(function () {
  var blocks = [];

  function variantFrom(event) {
    var d = event && event.detail;
    var v = d && (d.variant || (d.resource && d.resource.id ? d.resource : null));
    if (v && v.id) return String(v.id);
    var t = event && event.target;
    if (t && t.name === "id" && t.value) return String(t.value);
    var field = document.querySelector('form[action*="/cart/add"] [name="id"]');
    return new window.URLSearchParams(window.location.search).get("variant") || (field && field.value) || null;
  }

  function setup(root) {
    if (root.hasAttribute("data-ready")) return;
    root.setAttribute("data-ready", "");
    var data;
    try {
      data = JSON.parse(root.dataset.models);
    } catch {
      return;
    }
    var poster = root.querySelector("[data-poster]");
    var img = poster.querySelector("img");
    var frame = null;
    var entry = null;
    var ds = root.dataset;

    function src() {
      // No colour chosen: the model's own background (its owner's colour, gradient or environment).
      return data.origin + "/embed/" + entry.id + "?autorotate=" + ds.autorotate + "&annotations=" + ds.annotations +
        (ds.background ? "&background=" + encodeURIComponent(ds.background) : "");
    }

    function load() {
      if (frame || !entry) return;
      frame = document.createElement("iframe");
      frame.className = "scanroom-3d__frame";
      frame.title = entry.name;
      frame.allow = "fullscreen; xr-spatial-tracking";
      frame.setAttribute("allowfullscreen", "");
      frame.src = src();
      poster.hidden = true;
      root.appendChild(frame);
      root.setAttribute("data-loaded", "");
    }

    function show(variantId) {
      if (!variantId) return;
      var next = data.variants[variantId] || data.product;
      if (next === entry) return;
      entry = next;
      root.hidden = !entry;
      if (!entry) return;
      if (frame) {
        frame.title = entry.name;
        frame.src = src();
      } else {
        if (!img && entry.poster) img = poster.insertBefore(document.createElement("img"), poster.firstChild);
        if (img) {
          if (entry.poster) img.src = entry.poster;
          img.alt = entry.name;
          img.hidden = !entry.poster;
        }
      }
      poster.setAttribute("data-model", entry.id);
      root.setAttribute("data-model", entry.id);
    }

    entry = data.variants[ds.variant] || data.product;
    poster.addEventListener("click", load);
    var slide = root.closest("[data-media-id]");
    if (slide) {
      var was = slide.classList.contains("is-active");
      new window.MutationObserver(function () {
        var now = slide.classList.contains("is-active");
        if (now && !was) load();
        was = now;
      }).observe(slide, { attributes: true, attributeFilter: ["class"] });
    }
    blocks.push(show);
  }

  function update(event) {
    var id = variantFrom(event);
    for (var i = 0; i < blocks.length; i++) blocks[i](id);
  }

  function scan() {
    var els = document.querySelectorAll("[data-scanroom-3d]");
    for (var i = 0; i < els.length; i++) setup(els[i]);
  }

  scan();
  // The theme editor re-renders a section in place when the merchant edits it.
  document.addEventListener("shopify:section:load", scan);

  // Themes report a variant change in different ways: the URL's ?variant= (history API), a change of the
  // product form's `id` field, or an event carrying the variant.
  ["pushState", "replaceState"].forEach(function (name) {
    var original = window.history[name];
    window.history[name] = function () {
      var result = original.apply(this, arguments);
      if (blocks.length) update();
      return result;
    };
  });
  window.addEventListener("popstate", function () {
    update();
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "id") update(event);
  });
  ["variant:change", "variant:changed", "variant:update"].forEach(function (type) {
    document.addEventListener(type, update);
  });
})();
