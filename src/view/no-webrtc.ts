// WebRTC out of an App's reach. CSP does not cover WebRTC (`connect-src 'none'` does not stop a
// TURN/STUN server or a peer: Chromium ignores CSP's `webrtc` directive), so the sandbox proxy puts
// this script first in the App's document, before any of the App's own: it removes RTCPeerConnection
// and its friends from the App's realm, and from every nested frame's realm the App creates (a
// same-origin about:blank or srcdoc child has its own constructors). A child is neutered when the
// App first reaches it (contentWindow/contentDocument, the synchronous load of about:blank, a
// capturing listener the App cannot precede), and a srcdoc child gets this script first as well.
// Everything it uses is captured before the App runs, so the App cannot redefine it.

/** The guard, plain JavaScript (it is sent as text: no compiler helper may appear in it, and no
 * backslash, so what the browser runs is exactly this text). */
const GUARD = String.raw`function (self) {
  const W = window, O = W.Object, dp = O.defineProperty, gopd = O.getOwnPropertyDescriptor;
  const call = W.Function.prototype.call.bind(W.Function.prototype.call);
  const seen = new W.WeakSet(), guarded = new W.WeakSet();
  const NAMES = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCSessionDescription", "RTCIceCandidate",
    "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver", "RTCDtlsTransport", "RTCIceTransport", "RTCSctpTransport",
    "RTCCertificate", "RTCDTMFSender", "RTCStatsReport", "RTCTrackEvent", "RTCDataChannelEvent", "RTCPeerConnectionIceEvent",
    "RTCPeerConnectionIceErrorEvent", "RTCError", "RTCErrorEvent", "RTCEncodedAudioFrame", "RTCEncodedVideoFrame",
    "RTCRtpScriptTransform", "RTCDTMFToneChangeEvent"];
  const FRAMES = ["HTMLIFrameElement", "HTMLFrameElement", "HTMLObjectElement"];
  const SCRIPT = "<script>(" + self + ")(" + W.JSON.stringify(self).split("<").join(W.String.fromCharCode(92) + "u003c") + ")</" + "script>";
  const getters = [];
  const isFrame = (n) => { const t = n && n.nodeType === 1 ? String(n.localName) : ""; return t === "iframe" || t === "frame"; };
  const contentOf = (el) => {
    for (let i = 0; i < getters.length; i++) { try { const w = getters[i](el); if (w) return w; } catch (e) {} }
    return null;
  };
  // A srcdoc child runs its own scripts in its own realm: this script goes first there too.
  const guardAttrs = (el) => {
    const v = el.getAttribute("srcdoc");
    if (v !== null && v.slice(0, SCRIPT.length) !== SCRIPT) el.setAttribute("srcdoc", SCRIPT + v);
    const src = el.getAttribute("src");
    let scheme = "";
    for (let i = 0; src !== null && i < src.length && scheme.length < 11; i++) if (src.charCodeAt(i) > 32) scheme += src[i];
    if (scheme.toLowerCase() === "javascript:") el.setAttribute("src", "about:blank");
  };
  const onFrame = (el) => { if (isFrame(el)) { guardAttrs(el); neuter(contentOf(el)); } };
  function neuter(w) {
    if (!w || seen.has(w)) return;
    try {
      for (let i = 0; i < NAMES.length; i++) {
        try { delete w[NAMES[i]]; dp(w, NAMES[i], { value: undefined, writable: false, configurable: false, enumerable: false }); } catch (e) {}
      }
      seen.add(w);
      install(w);
    } catch (e) {
      // a cross-origin frame (a declared frameDomains origin): its own origin's rules apply
    }
  }
  function install(w) {
    for (let i = 0; i < FRAMES.length; i++) {
      const ctor = w[FRAMES[i]], proto = ctor && ctor.prototype;
      if (!proto) continue;
      for (const prop of ["contentWindow", "contentDocument"]) {
        const d = gopd(proto, prop);
        if (!d || !d.get || !d.configurable) continue;
        const get = d.get;
        if (prop === "contentWindow") getters.push((e) => call(get, e));
        dp(proto, prop, { configurable: false, enumerable: d.enumerable, get() {
          if (prop === "contentDocument") neuter(contentOf(this));
          const r = call(get, this);
          if (prop === "contentWindow") neuter(r);
          return r;
        } });
      }
    }
    const watch = (target) => {
      if (guarded.has(target)) return;
      guarded.add(target);
      // An about:blank frame loads synchronously on insertion: neutered before the inserting call returns.
      target.addEventListener("load", (e) => onFrame(e.target), true);
      if (target === w) return;
      new w.MutationObserver((records) => {
        for (let i = 0; i < records.length; i++) {
          const r = records[i];
          if (r.type === "attributes") onFrame(r.target);
          for (let j = 0; j < r.addedNodes.length; j++) {
            const n = r.addedNodes[j];
            onFrame(n);
            const inner = n.nodeType === 1 ? n.querySelectorAll("iframe,frame") : [];
            for (let k = 0; k < inner.length; k++) onFrame(inner[k]);
          }
        }
      }).observe(target, { childList: true, subtree: true, attributes: true, attributeFilter: ["srcdoc", "src"] });
    };
    watch(w);
    watch(w.document);
    const ep = w.Element.prototype, attach = ep.attachShadow;
    if (attach) dp(ep, "attachShadow", { configurable: false, writable: false, value(o) { const root = call(attach, this, o); watch(root); return root; } });
  }
  neuter(W);
}`;

/** The `<script>` put first in the App's document. */
export const GUARD_SCRIPT = `<script>(${GUARD})(${JSON.stringify(GUARD).split("<").join("\\u003c")})</script>`;
