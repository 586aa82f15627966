/*
 * Nyaya chat page: ask questions about the Constitution of India and read the quoted text.
 * Vanilla JS, no build step; served at /assets/app.js and compiled into the binary.
 *
 * Stable hooks for the browser tests (keep these exactly):
 *   #ask-form (form) > textarea#question, button#ask[type=submit]
 *   .turn                  one question + answer; data-state="done" | "error" when finished
 *                          (pending/streaming while in progress)
 *   .turn .answer          the answer container; also has class "refusal" when refused
 *   button.chip[data-ref][data-n]   a citation chip ("22", "1"); opens the drawer
 *   #drawer                the provision drawer (role=dialog); `hidden` when closed
 *   #drawer-title          its heading;  #drawer-text mark.quoted  the highlighted clause
 *   a#drawer-pdf           link to /v1/document.pdf#page=N
 *   #browse-toggle         shows/hides #browse;  #jump-form > input#jump  (opens a provision)
 *   #browse [data-ref]     table-of-contents entries (buttons)
 *   #theme-toggle          light/dark switch (persisted in localStorage "nyaya-theme")
 *   #lang-en, #lang-hi     the interface language (persisted in localStorage "nyaya-lang");
 *                          sets <html lang>; fixed strings come from /assets/catalogue.json
 *   #disclaimer            the always-visible "not legal advice" line
 *   .turn .scrub-notice    under a question: the kinds of identifying details removed before
 *                          sending ("Removed before sending: a phone number, a name.")
 */
'use strict';

(function () {
  // ---------------------------------------------------------------------------------------
  // Theme. Runs before first paint (the script is not deferred) so a saved choice does not
  // flash the other theme. No saved choice = follow prefers-color-scheme, resolved here into
  // data-theme so that the dark palette is written once in app.css.
  const THEME_KEY = 'nyaya-theme';
  const MODE_KEY = 'nyaya-mode';
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (_) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (_) { /* private mode: no memory */ } },
  };
  const savedTheme = store.get(THEME_KEY);
  const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
  document.documentElement.dataset.theme =
    savedTheme === 'light' || savedTheme === 'dark' ? savedTheme : (systemDark.matches ? 'dark' : 'light');

  // ---------------------------------------------------------------------------------------
  // Language of the page's own strings. Every fixed string is in /assets/catalogue.json
  // ({"en": {key: text}, "hi": {key: text}}): index.html marks its elements with data-i18n
  // (text) and data-i18n-placeholder / -title / -aria-label, and whatever app.js writes goes
  // through t(). What the server sends (answers, quotes, titles, reasons) is shown as sent:
  // the server already frames a Hindi question's answer in Hindi, and quotes stay the
  // official English text. Resolved here, before first paint, so <html lang> (and with it
  // the Devanagari font stack in app.css) is right from the start.
  const LANG_KEY = 'nyaya-lang';
  const LANGS = ['en', 'hi'];
  const savedLang = store.get(LANG_KEY);
  let lang = LANGS.includes(savedLang) ? savedLang
    : (/^hi\b/i.test(navigator.language || '') ? 'hi' : 'en');
  document.documentElement.lang = lang;
  // index.html is written in English: hide it until the other language is applied rather
  // than flash the English (app.css hides the body while this attribute is set).
  if (lang !== 'en') {
    document.documentElement.dataset.i18nPending = '';
    // Never a blank page: English after a moment if the catalogue is slow to come.
    setTimeout(() => { delete document.documentElement.dataset.i18nPending; }, 3000);
  }
  let catalogue = {};
  // Fetched now, in parallel with parsing the body; init() waits for it.
  const catalogueReady = fetch('/assets/catalogue.json', { headers: { Accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status))))
    .then((c) => { catalogue = c; })
    // Without it (unlikely: app.js came from the same server a moment ago) the page still
    // works in index.html's English, but what app.js writes shows as keys.
    .catch((e) => {
      console.error('Nyaya: could not load the string catalogue:', e);
      lang = 'en';
      document.documentElement.lang = 'en';
    });

  /** The catalogue's text for key in the current language, with {name} filled from params. */
  function t(key, params) {
    const text = (catalogue[lang] || {})[key] ?? (catalogue.en || {})[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (m, name) => (params && params[name] != null ? String(params[name]) : m));
  }

  // The server refuses (400) a request with more turns of history than this.
  const MAX_HISTORY = 10;

  const state = {
    history: [],          // [{question, refs}] of answered turns, oldest first
    busy: false,          // one question in flight at a time
    turnSeq: 0,
    toc: null,            // Promise of the provisions list (also used for ref labels)
    tocRendered: false,
    provisions: new Map(), // ref -> Promise<provision view>, so re-opening is instant
    drawer: { open: false, opener: null, stack: [], current: null, token: 0 },
    view: 'chat',         // chat | browse | changes
    edition: null,        // the edition answers cite, for the disclaimer
    changesShown: null,   // {from, to} of the comparison on screen
  };
  // Per-turn data the delegated click handlers need (citations by number).
  const turnData = new WeakMap();

  const $ = (sel, root) => (root || document).querySelector(sel);

  // A question submitted before init() (the catalogue still loading) is held, not sent as a
  // plain form GET that would reload the page; init() submits it.
  let ready = false;
  let heldSubmit = null;
  document.addEventListener('submit', (ev) => {
    if (!ready) { ev.preventDefault(); heldSubmit = ev.target; }
  }, true);
  document.addEventListener('DOMContentLoaded', () => catalogueReady.then(init));

  function init() {
    applyStrings();
    initLanguage();
    initTheme();
    initComposer();
    initBrowse();
    initChanges();
    initDrawer();
    // Delegated clicks: chips, suggestions and provision links appear all over the page.
    document.addEventListener('click', onDocumentClick);
    // The list is small (~500 rows) and gives human labels for refs; fetch it in the background.
    loadToc().catch(() => { /* shown when the Browse view is opened */ });
    ready = true;
    if (heldSubmit && heldSubmit.requestSubmit) heldSubmit.requestSubmit();
  }

  // ---------------------------------------------------------------------------------------
  // The language switch. Switching rewrites the fixed strings in place: index.html's, and
  // those app.js keeps on screen (buttons, the open view). Turns already in the
  // conversation keep the language they were written in.

  /** Writes the catalogue's text into every data-i18n* element of index.html. */
  function applyStrings() {
    delete document.documentElement.dataset.i18nPending;
    if (!catalogue.en) return; // keep index.html's English rather than show keys
    for (const node of document.querySelectorAll('[data-i18n]')) {
      node.textContent = t(node.dataset.i18n);
      // The example questions ask what they say.
      if (node.matches('.suggestion')) node.dataset.question = node.textContent;
    }
    for (const attr of ['placeholder', 'title', 'aria-label']) {
      for (const node of document.querySelectorAll('[data-i18n-' + attr + ']')) {
        node.setAttribute(attr, t(node.getAttribute('data-i18n-' + attr)));
      }
    }
    updateEdition(state.edition);
    for (const b of document.querySelectorAll('.lang-switch [data-lang]')) {
      b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
    }
  }

  function initLanguage() {
    for (const b of document.querySelectorAll('.lang-switch [data-lang]')) {
      b.addEventListener('click', () => setLanguage(b.dataset.lang));
    }
  }

  function setLanguage(next) {
    if (!LANGS.includes(next) || next === lang) return;
    lang = next;
    store.set(LANG_KEY, next);
    document.documentElement.lang = next;
    applyStrings();
    // The strings app.js wrote and still shows.
    syncTheme();
    setBusy(state.busy);
    showView(state.view);
    if (state.tocRendered) { state.tocRendered = false; if (state.view === 'browse') renderToc(); }
    if (state.changesShown) renderChanges(state.changesShown.from, state.changesShown.to);
    // (The drawer needs nothing: it is modal, so the switch cannot be used while it is open.)
  }

  // ---------------------------------------------------------------------------------------
  // Small DOM helpers.

  /** el('p', {class: 'x', text: 'hi', 'data-ref': '22'}, child...); null attributes are skipped. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function announce(text) {
    const live = $('#announcer');
    // Clearing first makes screen readers announce a repeated message again.
    live.textContent = '';
    setTimeout(() => { live.textContent = text; }, 50);
  }

  /** Text in an Indic script (Devanagari … Sinhala) gets the Indic font stack (app.css). */
  const INDIC = /[\u0900-\u0DFF]/;
  const scriptClass = (text) => (INDIC.test(text || '') ? 'script-indic' : null);

  const pdfHref = (page) => '/v1/document.pdf' + (page ? '#page=' + page : '');

  /** "Article 22(1)" -> "Art. 22(1)": chips must stay short on a phone. */
  const shortLabel = (label) => String(label || '').replace(/^Article\s+/, 'Art. ');

  /** A human label for a ref id ("21A" -> "Art. 21A"), using the TOC when it is loaded. */
  function refLabel(ref) {
    // Router refs may carry a clause ("15(4)"): label the provision, keep the clause.
    const [, id, clause] = /^([^(]*)(.*)$/.exec(String(ref));
    const p = tocIndex.get(id);
    if (p) return provisionLabel(p) + clause;
    if (/^\d+[A-Z]*$/.test(id)) return t('label.art_short', { n: id }) + clause;
    if (id === 'PREAMBLE') return t('label.preamble');
    return String(ref);
  }
  const tocIndex = new Map();

  function provisionLabel(p, long) {
    if (p.kind === 'article') return long ? t('label.article', { n: p.number }) : t('label.art_short', { n: p.number });
    if (p.kind === 'preamble') return t('label.preamble');
    // Schedules are numbered in words ("SEVENTH"), appendices in roman numerals ("II"); the
    // ordinal stays as the text prints it.
    if (p.kind === 'schedule' && p.number) return t('label.schedule', { name: capitalise(p.number.toLowerCase()) });
    if (p.kind === 'appendix' && p.number) return t('label.appendix', { n: p.number });
    return p.title || p.ref;
  }

  /** Formats milliseconds: 0.4 ms, 12 ms, 1.3 s. */
  function ms(v) {
    if (typeof v !== 'number') return '–';
    if (v >= 1000) return (v / 1000).toFixed(1) + ' s';
    return (v < 10 ? v.toFixed(1) : Math.round(v)) + ' ms';
  }

  // ---------------------------------------------------------------------------------------
  // API access. Every failure becomes an ApiError with a message fit to show to a citizen.

  class ApiError extends Error {
    constructor(code, message, status) { super(message); this.code = code; this.status = status; }
  }

  async function errorFrom(res) {
    let code = 'http_' + res.status;
    let message = res.status >= 500
      ? t('error.server', { status: res.status })
      : t('error.rejected', { status: res.status });
    try {
      const body = await res.json();
      if (body && body.error) {
        code = body.error.code || code;
        message = body.error.message || message;
      }
    } catch (_) { /* not JSON: keep the generic message */ }
    return new ApiError(code, message, res.status);
  }

  function networkError() {
    return new ApiError('network', t('error.network'), 0);
  }

  async function getJSON(url) {
    let res;
    try { res = await fetch(url, { headers: { Accept: 'application/json' } }); }
    catch (_) { throw networkError(); }
    if (!res.ok) throw await errorFrom(res);
    return res.json();
  }

  function getProvision(ref) {
    if (!state.provisions.has(ref)) {
      const p = getJSON('/v1/provisions/' + encodeURIComponent(ref));
      // Do not cache failures: a network blip should not poison the ref for the session.
      p.catch(() => state.provisions.delete(ref));
      state.provisions.set(ref, p);
    }
    return state.provisions.get(ref);
  }

  /**
   * POSTs to /v1/ask/stream and parses the server-sent events by hand (EventSource cannot
   * POST). Calls on(event, data) for each event and resolves with the `final` response.
   */
  async function streamAsk(body, on) {
    let res;
    try {
      res = await fetch('/v1/ask/stream', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
    } catch (_) { throw networkError(); }
    // Validation errors (400) arrive as plain JSON before the stream opens.
    if (!res.ok) throw await errorFrom(res);

    let final = null;
    let buffer = '';
    const dispatch = (block) => {
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue; // comments are keep-alives
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (!data.length) return;
      let payload;
      try { payload = JSON.parse(data.join('\n')); } catch (_) { return; }
      if (event === 'error') {
        throw new ApiError(payload.code || 'stream_error',
          capitalise(payload.message || t('error.stream')) + '.', 0);
      }
      if (event === 'final') final = payload;
      on(event, payload);
    };
    const feed = (text) => {
      buffer += text;
      // Normalise line ends, but keep a trailing \r: its \n may come in the next chunk.
      const keep = buffer.endsWith('\r') ? '\r' : '';
      buffer = buffer.slice(0, buffer.length - keep.length).replace(/\r\n?/g, '\n') + keep;
      let i;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        dispatch(block);
      }
    };

    const decoder = new TextDecoder();
    // Only a failed read is a network problem; errors from feed() (an `error` event, or a bug
    // while rendering) propagate as they are.
    const read = async (promise) => {
      try { return await promise; } catch (_) {
        throw new ApiError('network', t('error.interrupted'), 0);
      }
    };
    if (res.body && res.body.getReader) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await read(reader.read());
        if (done) break;
        feed(decoder.decode(value, { stream: true }));
      }
    } else {
      feed(await read(res.text())); // no streaming body: same events, all at the end
    }
    feed(decoder.decode() + '\n\n'); // flush a last event that lacks its blank line
    if (!final) {
      throw new ApiError('incomplete', t('error.incomplete'), 0);
    }
    return final;
  }

  const capitalise = (s) => s.charAt(0).toUpperCase() + s.slice(1);

  // ---------------------------------------------------------------------------------------
  // Identifying details. Names, street addresses, dates of birth, phone numbers, emails and
  // ID numbers are replaced by placeholders ("[phone]") here, before the question leaves the
  // browser; the server scrubs again. A small port of src/answer/scrub.rs: the same rules in
  // the same order, with copies of the word lists of data/scrub.toml (a unit test in
  // scrub.rs fails when these differ from the file).

  const scrubber = (() => {
    const W = {
    not_names: `
      a an the i me my mine we us our you your he him his she her they them their it its this that
      these those here there and or but nor so if then than because as at by for from in into of on
      onto to with without under over about after before since till until per via not no yes also only
      just still now today please kindly sir madam ma'am hello hi dear namaste is am are was were be
      been being do does did have has had can could will would shall should may might must what which
      who whom whose when where why how whether all any some every each other another new old one two
      ok okay sorry confused worried scared afraid sure unsure right wrong free married unmarried
      single divorced widowed disabled unemployed employed retired poor rich minor major adult male
      female man woman boy girl child student teacher farmer worker doctor engineer lawyer journalist
      shopkeeper landlord tenant owner resident native permanent born living staying working studying
      asking writing trying going planning thinking arrested detained accused charged innocent guilty
      victim witness petitioner respondent applicant candidate voter elector member head chief officer
      official employee servant question query urgent important regarding re subject citizen citizens
      national foreigner foreign alien refugee migrant immigrant nri oci pio indian india bharat
      bharatiya hindustani pakistani bangladeshi nepali nepalese bhutanese tibetan sri lankan afghan
      burmese chinese american british english european african asian overseas hindu muslim christian
      sikh jain buddhist parsi parsee zoroastrian jewish jew bahai atheist agnostic islam islamic
      catholic protestant shia sunni ahmadi ahmadiyya bohra brahmin brahman kshatriya vaishya shudra
      dalit adivasi tribal harijan bahujan obc sc st sebc ews bpl apl scheduled caste castes tribe
      tribes backward class classes minority minorities general reserved unreserved lgbt lgbtq lgbtqia
      transgender trans gay lesbian bisexual queer hijra kinnar divyang anglo creamy layer huf hindi
      bengali bangla tamil telugu kannada kannadiga malayali malayalam marathi gujarati punjabi odia
      oriya assamese kashmiri konkani sindhi urdu sanskrit manipuri meitei bodo dogri maithili santali
      bihari rajasthani haryanvi goan naga mizo khasi garo tulu bhojpuri president vice vice-president
      prime minister ministers governor lieutenant lt administrator speaker deputy chairman
      chairperson attorney advocate advocate-general solicitor comptroller auditor cag commissioner
      judge judges justice magistrate collector tehsildar sarpanch pradhan panch mukhiya mayor
      councillor corporator mp mla mlc cm pm cji hc puisne district sessions ias ips ifs irs pcs ssc upsc psc mps mlas legislator
      senator parliamentarian police policeman constable inspector soldier army navy air force defence
      jawan sepoy ex serviceman government govt central union state states centre public private civil
      registrar secretary election commission parliament lok rajya sabha vidhan parishad legislative
      assembly council house houses panchayat panchayats municipality municipal corporation gram zila
      nagar supreme high court courts tribunal bench bar notary ombudsman lokpal lokayukta rbi bank
      manager director principal professor lecturer headmaster priest pujari imam maulvi pastor father
      mother brother sister son daughter husband wife uncle aunt guardian parent parents family
      constitution constitutional preamble article articles art arts part parts chapter schedule
      schedules list entry entries clause clauses section sub-clause proviso explanation appendix
      amendment amendments act acts bill bills ordinance law laws rule rules order notification
      fundamental directive principles duty duties rights emergency writ habeas corpus mandamus
      certiorari quo warranto prohibition pil rti fir ipc crpc bns bnss gst ucc nrc caa npr aadhaar
      pan epic upi pakistan bangladesh nepal bhutan china lanka myanmar afghanistan andhra pradesh
      arunachal assam bihar chhattisgarh goa gujarat haryana himachal jharkhand karnataka kerala
      keralite madhya maharashtra maharashtrian manipur meghalaya mizoram nagaland odisha orissa
      punjab rajasthan sikkim sikkimese nadu telangana tripura uttar uttarakhand west bengal delhi
      delhiite jammu kashmir ladakh ladakhi puducherry pondicherry chandigarh lakshadweep andaman
      nicobar dadra daman diu north south east northeast mumbai kolkata chennai bengaluru bangalore
      hyderabad ahmedabad pune lucknow patna jaipur bhopal srinagar guwahati`,
    titles: `
      mr mrs ms miss dr shri sri smt shrimati kumari km sushri prof adv advocate er capt col maj sgt
      late`,
    street_words: `
      road rd street st marg lane ln gali galli avenue ave boulevard path salai veedhi veethi rasta
      colony layout nagar enclave vihar puram kunj bagh ganj pet peth mohalla chowk bazar bazaar
      market cross main circle apartments apartment apts residency towers tower heights society chs
      complex mansion niwas nivas bhavan bhawan sadan villa villas gardens garden park extension extn
      estate township quarters wadi basti khurd kalan`,
    unit_words: `
      flat house h door d plot shop room quarter qtr qr apartment apt building bldg villa unit khasra`,
    reference_words: `
      article articles art arts section sections sec s clause clauses sub-clause entry entries part
      parts schedule schedules list rule rules order chapter regulation amendment act page para
      paragraph item items year years age aged class ward block phase sector seat seats member members`,
    stop_words: `
      i my me we our he she his her they their it the a an and or but so if can could will would shall
      should may might must do does did is are was were am has have had what when where which who whom
      whose why how whether please kindly also then because as under per article articles art section
      clause part schedule list entry amendment constitution act police court phone mobile email call
      contact aadhaar pan name dob age aged born since from for to in on at by with`,
    abbreviations: `
      no nos rd st nr opp dist distt tq tal teh po ps p.o p.s apt apts bldg extn ext mr mrs ms dr shri
      smt sri prof adv er capt col maj sgt lt km h.no d.no vill vil`,
    labels_name: `name|full name|first name|last name|surname|applicant name|applicant's name|father's name|mother's name|husband's name|wife's name|guardian's name|father name|mother name|husband name|s/o|d/o|w/o|c/o`,
    labels_address: `address|addr|residential address|permanent address|current address|present address|postal address|correspondence address|home address`,
    labels_dob: `dob|d.o.b.|date of birth|birth date`,
    labels_address_parts: `city|town|village|district|dist|state|pin|pincode|pin code`,
    labels_other: `age|phone|phone no|ph|mobile|mobile no|mob|contact|contact no|tel|email|e-mail|email id|aadhaar|aadhar|aadhaar no|pan|pan no|voter id|epic|passport|gender|sex|occupation|religion|caste|category|nationality|question|query`,
    };
    const words = (k) => new Set(W[k].trim().split(/\s+/));
    const NOT_NAMES = words('not_names');
    const TITLES = words('titles');
    const STREETS = words('street_words');
    const REFERENCES = words('reference_words');
    const STOPS = words('stop_words');
    const ABBREVIATIONS = words('abbreviations');
    const has = (set, w) => { const k = w.replace(/\.+$/, '').toLowerCase(); return k !== '' && set.has(k); };
    /** Regex alternatives, longest first; "'" may be ’ or left out, "." may be left out. */
    const alt = (items) => items.map((l) => l.trim()).filter(Boolean).sort((a, b) => b.length - a.length)
      .map((l) => [...l].map((c) => (c === "'" || c === '’' ? "['’]?" : c === '.' ? '\\.?' : c === ' ' ? '[ \\t]+'
        : c.replace(/[\\^$*+?()[\]{}|]/g, '\\$&'))).join(''))
      .join('|');
    const labels = (...keys) => alt(keys.flatMap((k) => W['labels_' + k].split('|')));
    const R = String.raw;

    const PIN = R`\b[1-9]\d{2} ?\d{3}\b`;
    const MONTH = R`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
    const DATE = R`(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})|\d{4}-\d{1,2}-\d{1,2}|\d{1,2}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?${MONTH}\.?,?[ \t]+\d{4}|${MONTH}\.?[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4})\b`;
    const WORD = R`(?:\p{Lu}[\p{L}\p{M}'’\-]*(?:\.\p{Lu}[\p{L}\p{M}'’\-]*)*\.?|\d{1,3}(?:st|nd|rd|th)\b)`;
    const NUM = R`[A-Za-z]?\d{1,5}[A-Za-z]?(?:[\-\/][A-Za-z0-9]{1,5})*\b`;
    const SEPARATOR = R`[ \t]*(?::|[\-–—])`;

    const LABEL = new RegExp(R`(?:^|[,;:.!?(]|\b(?:my|his|her|our|your|their)\b)[ \t]*(?:(${labels('name')})|(${labels('address')})|(${labels('dob')}))${SEPARATOR}[ \t]*`, 'gim');
    const NEXT_LABEL = new RegExp(R`(?:^|[\s,;(])(?:${labels('name', 'address', 'dob', 'address_parts', 'other')})${SEPARATOR}`, 'im');
    const NEXT_LABEL_IN_ADDRESS = new RegExp(R`(?:^|[\s,;(])(?:${labels('name', 'address', 'dob', 'other')})${SEPARATOR}`, 'im');
    const CLAUSE = /[ \t]+(?:and|but|so|can|could|will|would|should|what|why|how|is|are|was|were|i|my|please|because|who|which|whether|if)\b/;
    const DATE_AT_START = new RegExp('^' + DATE, 'i');
    const BIRTH_DATE = new RegExp(R`\b(?:born[ \t]+(?:on[ \t]+)?(?:the[ \t]+)?|(?:d\.?[ \t]?o\.?[ \t]?b\.?|date[ \t]+of[ \t]+birth|birth[ \t]*date)[ \t]*(?:is[ \t]+|[:\-–][ \t]*)?)(${DATE})`, 'gi');
    const NAME_INTRO = new RegExp(R`(?:\b(?:(?:my|his|her|our)[ \t]+(?:(?:father|mother|husband|wife|son|daughter|brother|sister|guardian)['’]?s[ \t]+)?(?:full[ \t]+)?name[ \t]+is|my[ \t]+name['’]s|i[ \t]+am|i['’]m|this[ \t]+is|myself|(?:son|daughter|wife|husband)[ \t]+of)\b|\b[sdwch]\/o\b)[ \t]*[:,\-]?[ \t]*`, 'gi');
    const NAME_WORD = new RegExp(R`^\p{Lu}[\p{L}\p{M}'’\-]*(?:\.\p{Lu}[\p{L}\p{M}'’\-]*)*\.?`, 'u');
    const unitWords = W.unit_words.trim().split(/\s+/);
    const UNIT_NO = new RegExp(R`\b(?:${alt(unitWords)})\b\.?[ \t]*(?:no\b\.?|number\b|#)[ \t]*[:.\-]?[ \t]*${NUM}`, 'gi');
    const UNIT_CAP = new RegExp(R`\b(?:${unitWords.filter((w) => w.length > 1).map(capitalise).join('|')})[ \t]+${NUM}`, 'g');
    const HASH_NO = new RegExp(R`(?:^|[\s(])(#[ \t]?${NUM})`, 'g');
    const HOUSE = new RegExp(R`\b(?:[Nn][Oo]\.?[ \t]*)?(${NUM}),?[ \t]+(${WORD}(?:[ \t]+${WORD}){0,3})`, 'gu');
    const CAPS = new RegExp(R`\b${WORD}(?:[ \t]+${WORD}){1,3}`, 'gu');
    const SEP = /^(?:[ \t]*(?:,|[-–]|\r?\n)[ \t]*|[ \t]+)/;
    const PIN_AT_START = new RegExp('^' + PIN);
    const PLACE_WORD = new RegExp(R`^(?:${WORD}|\d{1,4}[A-Za-z]?\b)`, 'u');

    const pattern = (placeholder, re) => (text) => [...text.matchAll(re)].map((m) => [m.index, m.index + m[0].length, placeholder]);
    /** [end, sentenceEnded] of a word token: "Kumar." ends a sentence; "R.", "Rd.", "M.G." do not. */
    function wordEnd(tok) {
      if (tok.endsWith('.')) {
        const core = tok.slice(0, -1);
        if ([...core].length > 2 && !core.includes('.') && !has(ABBREVIATIONS, core)) return [core.length, true];
      }
      return [tok.length, false];
    }
    function sentenceEnd(s) {
      for (let i = 0; i < s.length; i++) {
        const c = s[i];
        if (c === '\n' || c === '\r' || c === '?' || c === '!') return i;
        if (c === '.' && (i + 1 >= s.length || /\s/.test(s[i + 1]))) {
          const word = /[\p{L}\p{N}.]*$/u.exec(s.slice(0, i))[0];
          if ([...word].length > 2 && !word.includes('.') && !has(ABBREVIATIONS, word)) return i;
        }
      }
      return s.length;
    }
    const blanks = (s) => s.length - s.replace(/^[ \t]+/, '').length;

    function labelSpans(text) {
      const out = [];
      LABEL.lastIndex = 0;
      let m;
      while ((m = LABEL.exec(text))) {
        const kind = m[1] ? 'name' : m[2] ? 'address' : 'dob';
        const start = m.index + m[0].length;
        const v = labelValue(text, start, kind);
        if (v) {
          out.push([start, v, '[' + kind + ']']);
          LABEL.lastIndex = v;
        } else {
          LABEL.lastIndex = Math.max(start, m.index + 1);
        }
      }
      return out;
    }
    /** The end of a labelled value that starts at `start`, or null when it is empty. */
    function labelValue(text, start, kind) {
      const rest = text.slice(start);
      if (kind === 'dob') {
        const d = DATE_AT_START.exec(rest);
        if (d) return start + d[0].length;
      }
      let end = sentenceEnd(rest);
      const next = (kind === 'address' ? NEXT_LABEL_IN_ADDRESS : NEXT_LABEL).exec(rest);
      if (next) end = Math.min(end, next.index);
      const cut = kind === 'address' ? CLAUSE.exec(rest) : /[,;(]/.exec(rest);
      if (cut) end = Math.min(end, cut.index);
      let value = rest.slice(0, end);
      if (kind === 'name') {
        const stop = [...value.matchAll(/\S+/g)].find((w) => has(NOT_NAMES, w[0].replace(/[:.]+$/, '')));
        if (stop) value = value.slice(0, stop.index);
      }
      value = value.replace(/[\s,;:\-–—]+$/, '');
      return value.trim() ? start + value.length : null;
    }

    function birthDateSpans(text) {
      return [...text.matchAll(BIRTH_DATE)].map((m) => {
        const end = m.index + m[0].length;
        return [end - m[1].length, end, '[dob]'];
      });
    }

    function nameSpans(text) {
      const out = [];
      for (const m of text.matchAll(NAME_INTRO)) {
        if (out.length && out[out.length - 1][1] > m.index) continue;
        const r = nameAfter(text, m.index + m[0].length);
        if (r) out.push([r[0], r[1], '[name]']);
      }
      return out;
    }
    /** One to four capitalised words that are a personal name, after titles ("Dr.") that stay. */
    function nameAfter(text, pos) {
      let first = null;
      let end = pos;
      let count = 0;
      for (;;) {
        const at = pos + blanks(text.slice(pos));
        const m = NAME_WORD.exec(text.slice(at));
        if (!m) break;
        const tok = m[0];
        let [len, sentenceEnded] = wordEnd(tok);
        const possessive = ["'s", '’s'].find((p) => tok.slice(0, len).endsWith(p));
        if (possessive) len -= possessive.length;
        const word = tok.slice(0, len);
        if (count === 0 && has(TITLES, word)) { pos = at + tok.length; continue; }
        if (has(NOT_NAMES, word)) break;
        if (first === null) first = at;
        end = at + len;
        count++;
        if (sentenceEnded || possessive || count === 4) break;
        pos = at + tok.length;
      }
      return first === null ? null : [first, end];
    }

    function addressSpans(text) {
      const anchors = []; // [start, end, needsPin, sentenceEnded]
      const commaFollows = (end) => /^[ \t]*,/.test(text.slice(end));
      for (const m of text.matchAll(UNIT_NO)) anchors.push([m.index, m.index + m[0].length, false, false]);
      for (const m of text.matchAll(UNIT_CAP)) {
        if (commaFollows(m.index + m[0].length)) anchors.push([m.index, m.index + m[0].length, false, false]);
      }
      for (const m of text.matchAll(HASH_NO)) {
        const end = m.index + m[0].length;
        if (commaFollows(end)) anchors.push([end - m[1].length, end, false, false]);
      }
      let m;
      HOUSE.lastIndex = 0;
      while ((m = HOUSE.exec(text))) {
        const a = houseAnchor(text, m);
        if (a) { anchors.push([m.index, a[0], false, a[1]]); HOUSE.lastIndex = a[0]; } else HOUSE.lastIndex = m.index + 1;
      }
      CAPS.lastIndex = 0;
      while ((m = CAPS.exec(text))) {
        const s = streetWordsEnd(m[0]);
        if (s) { anchors.push([m.index + s[0], m.index + s[1], true, s[2]]); CAPS.lastIndex = m.index + s[1]; } else CAPS.lastIndex = m.index + 1;
      }
      anchors.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
      const out = [];
      for (const [start, anchorEnd, needsPin, sentenceEnded] of anchors) {
        if (out.length && out[out.length - 1][1] > start) continue;
        const [end, hasPin] = sentenceEnded ? [anchorEnd, false] : extendAddress(text, anchorEnd);
        if (needsPin && !hasPin) continue;
        out.push([start, end, '[address]']);
      }
      return out;
    }
    function houseAnchor(text, m) {
      const num = m[1];
      if (/^\d{4}$/.test(num) && +num >= 1800 && +num < 2100) return null; // a year
      const before = text.slice(0, m.index).trimEnd();
      const prev = /[\p{L}\p{N}.\-]*$/u.exec(before)[0];
      if (/[([]$/.test(before) || has(REFERENCES, prev)) return null; // "Article 14 …"
      const s = streetWordsEnd(m[2]);
      return s ? [m.index + m[0].length - m[2].length + s[1], s[2]] : null;
    }
    /** In a run of capitalised words, the first street word after at least one other word. */
    function streetWordsEnd(run) {
      let from = null;
      let before = 0;
      for (const t of run.matchAll(/[^ \t]+/g)) {
        const [len, sentenceEnded] = wordEnd(t[0]);
        const word = t[0].slice(0, len);
        if (has(STOPS, word)) {
          if (from !== null) return null;
          continue;
        }
        if (has(STREETS, word) && before >= 1) return [from === null ? t.index : from, t.index + len, sentenceEnded];
        if (sentenceEnded) return null;
        if (from === null) from = t.index;
        before++;
      }
      return null;
    }
    /** The places and PIN code that continue an address: ", Sector 15", " Bengaluru - 560001". */
    function extendAddress(text, end) {
      let hasPin = false;
      for (let i = 0; i < 8; i++) {
        const sep = SEP.exec(text.slice(end));
        if (!sep) break;
        const after = end + sep[0].length;
        const pin = PIN_AT_START.exec(text.slice(after));
        if (pin) { end = after + pin[0].length; hasPin = true; continue; }
        if (/[-–]/.test(sep[0])) break; // a dash joins a PIN code only
        const p = place(text.slice(after));
        if (!p) break;
        end = after + p[0];
        if (p[1]) break;
      }
      return [end, hasPin];
    }
    function place(s) {
      let pos = 0;
      let end = null;
      let words = 0;
      for (let n = 0; n < 5; n++) {
        let at = 0;
        if (n) {
          const b = blanks(s.slice(pos));
          if (!b) break;
          at = pos + b;
        }
        const m = PLACE_WORD.exec(s.slice(at));
        if (!m) break;
        const tok = m[0];
        const number = /^\d/.test(tok) && !/(?:st|nd|rd|th)$/.test(tok);
        let len = tok.length;
        let sentenceEnded = false;
        if (!number) {
          if (has(STOPS, tok)) break;
          words++;
          [len, sentenceEnded] = wordEnd(tok);
        }
        end = [at + len, sentenceEnded];
        pos = at + tok.length;
        if (sentenceEnded) break;
      }
      return words ? end : null;
    }

    const RULES = [
      pattern('[email]', /\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b/gi),
      labelSpans,
      birthDateSpans,
      addressSpans,
      nameSpans,
      pattern('[account]', /\b\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{4}\b/g),
      pattern('[aadhaar]', /\b[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}\b/g),
      pattern('[pan]', /\b[a-z]{5}\d{4}[a-z]\b/gi),
      pattern('[voter-id]', /\b[a-z]{3}\d{7}\b/gi),
      pattern('[passport]', /\b[a-z]\d{7}\b/gi),
      pattern('[phone]', /(?:\+91[ -]?|\b0|\b)[6-9]\d{4}[ -]?\d{5}\b|\b0\d{2,4}[ -]\d{6,8}\b/g),
      pattern('[account]', /\b\d{9,18}\b/g),
      pattern('[pin-code]', new RegExp(PIN, 'g')),
    ];

    /** {text, removed}: the text with each identifying detail replaced by its placeholder. */
    function scrub(text) {
      const removed = [];
      for (const rule of RULES) {
        const spans = rule(text);
        if (!spans.length) continue;
        let out = '';
        let last = 0;
        for (const [start, end, placeholder] of spans) {
          out += text.slice(last, start) + placeholder;
          last = end;
          removed.push(placeholder);
        }
        text = out + text.slice(last);
      }
      return { text, removed };
    }

    // Catalogue keys for one of a kind and for {n} of them.
    const KINDS = {
      '[name]': ['scrub.name.one', 'scrub.name.many'], '[address]': ['scrub.address.one', 'scrub.address.many'],
      '[dob]': ['scrub.dob.one', 'scrub.dob.many'], '[email]': ['scrub.email.one', 'scrub.email.many'],
      '[phone]': ['scrub.phone.one', 'scrub.phone.many'], '[aadhaar]': ['scrub.aadhaar.one', 'scrub.aadhaar.many'],
      '[pan]': ['scrub.pan.one', 'scrub.pan.many'], '[voter-id]': ['scrub.voter_id.one', 'scrub.voter_id.many'],
      '[passport]': ['scrub.passport.one', 'scrub.passport.many'],
      '[account]': ['scrub.account.one', 'scrub.account.many'], '[pin-code]': ['scrub.pin_code.one', 'scrub.pin_code.many'],
    };
    /** "Removed before sending: a name, 2 phone numbers." — kinds only, never the values. */
    function notice(removed) {
      if (!removed.length) return null;
      const counts = new Map();
      for (const p of removed) counts.set(p, (counts.get(p) || 0) + 1);
      const parts = [...counts].map(([p, n]) => (n === 1 ? t(KINDS[p][0]) : t(KINDS[p][1], { n })));
      return t('scrub.notice', { kinds: parts.join(t('list.separator')) });
    }

    return { scrub, notice };
  })();

  // ---------------------------------------------------------------------------------------
  // Theme toggle: an explicit choice overrides the system preference and is remembered.

  /** The toggle names the theme it switches to. */
  function syncTheme() {
    const dark = document.documentElement.dataset.theme === 'dark';
    const btn = $('#theme-toggle');
    btn.setAttribute('aria-pressed', String(dark));
    btn.textContent = dark ? t('theme.light') : t('theme.dark');
  }

  function initTheme() {
    const btn = $('#theme-toggle');
    const effective = () => document.documentElement.dataset.theme;
    const sync = syncTheme;
    btn.addEventListener('click', () => {
      const next = effective() === 'dark' ? 'light' : 'dark';
      document.documentElement.dataset.theme = next;
      store.set(THEME_KEY, next);
      sync();
    });
    // Without an explicit choice the page follows the system as it changes.
    systemDark.addEventListener('change', () => {
      if (!store.get(THEME_KEY)) {
        document.documentElement.dataset.theme = systemDark.matches ? 'dark' : 'light';
        sync();
      }
    });
    sync();
  }

  // ---------------------------------------------------------------------------------------
  // The question box.

  function initComposer() {
    const form = $('#ask-form');
    const q = $('#question');
    const mode = $('#mode');
    const savedMode = store.get(MODE_KEY);
    if (savedMode === 'extractive' || savedMode === 'llm') mode.value = savedMode;
    mode.addEventListener('change', () => store.set(MODE_KEY, mode.value));

    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = q.value.trim();
      if (!text || state.busy) return;
      q.value = '';
      ask(text);
    });
    q.addEventListener('keydown', (ev) => {
      // Enter sends; Shift+Enter is a new line; never while an IME is composing text.
      if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        if (form.requestSubmit) form.requestSubmit(); else $('#ask').click();
      }
    });
  }

  function setBusy(busy) {
    state.busy = busy;
    const btn = $('#ask');
    btn.disabled = busy;
    btn.textContent = busy ? t('ask.busy') : t('ask.button');
    $('#log').setAttribute('aria-busy', String(busy));
  }

  /**
   * Asks a question. `facts` are an eligibility form's answers (fact id → true/false/number),
   * sent beside the question; they are not part of the question text.
   */
  async function ask(typed, facts) {
    if (state.busy) return;
    showView('chat');
    const intro = $('#intro');
    if (intro) intro.hidden = true;

    // Only the scrubbed question leaves the browser (and is shown, kept as history, retried).
    const { text: question, removed } = scrubber.scrub(typed);
    const turn = createTurn(question, scrubber.notice(removed), facts);
    setBusy(true);
    const body = { question, history: state.history.slice(-MAX_HISTORY) };
    if (facts && Object.keys(facts).length) body.facts = facts;
    const mode = $('#mode').value;
    if (mode) body.mode = mode;

    try {
      const final = await streamAsk(body, (event, data) => onStreamEvent(turn, event, data));
      renderFinal(turn, final);
      // Only answered turns go back as history: their cited refs are what a follow-up such as
      // "and who can remove them?" is about. Refusals and small talk would only add noise.
      // The answer text is omitted: the server accepts it but does not read it.
      if (!final.refused && final.citations.length) {
        const refs = [...new Set(final.citations.map((c) => c.ref))];
        state.history.push({ question, refs });
      }
    } catch (e) {
      renderError(turn, question, e);
    } finally {
      setBusy(false);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Turns.

  function createTurn(question, scrubNotice, facts) {
    const id = 'turn-' + (++state.turnSeq);
    const status = el('p', { class: 'status', text: t('status.reading') });
    const answer = el('div', { class: 'answer' }, status);
    const turn = el('article', { class: 'turn', id, 'data-state': 'pending', 'aria-labelledby': id + '-q' },
      el('div', { class: 'question' },
        el('span', { class: 'sr-only', text: t('turn.you_asked') + ' ' }),
        el('p', { id: id + '-q', class: scriptClass(question), text: question })),
      scrubNotice ? el('p', { class: 'scrub-notice', text: scrubNotice }) : null,
      facts && Object.keys(facts).length
        ? el('p', { class: 'facts-sent', text: t('turn.facts_sent', { facts: factsText(facts) }) })
        : null,
      answer);
    turnData.set(turn, { citations: [], answer, status, question });
    $('#log').append(turn);
    turn.scrollIntoView({ block: 'start', behavior: 'smooth' });
    return turn;
  }

  /** Progress while the stream runs: what the router decided, then the quotes, then text. */
  function onStreamEvent(turn, event, data) {
    const td = turnData.get(turn);
    if (event === 'route') {
      turn.dataset.state = 'streaming';
      td.status.textContent = routeStatus(data);
    } else if (event === 'citations') {
      td.citations = data;
      td.status.textContent = data.length === 1 ? t('status.found.one') : t('status.found.many', { n: data.length });
      const quotes = td.answer.querySelector('.quotes') || td.answer.appendChild(el('div', { class: 'quotes' }));
      quotes.replaceChildren(el('h3', { class: 'quotes-heading', text: t('quotes.heading') }),
        ...data.map((c) => quoteCard(c)));
    } else if (event === 'delta') {
      // Unverified LLM text: shown as it comes, replaced wholesale by the final answer.
      let p = td.answer.querySelector('.streaming');
      if (!p) {
        p = el('p', { class: 'streaming' });
        td.status.after(p);
        td.status.textContent = t('status.writing');
      }
      p.textContent += data.text || '';
    }
  }

  function routeStatus(r) {
    switch (r.route) {
      case 'article_lookup':
        return r.refs.length ? t('status.looking_up', { refs: r.refs.map(refLabel).join(t('list.separator')) })
          : t('status.looking_up_provision');
      case 'multi_part':
        return t('status.multi_part');
      case 'out_of_scope':
        return t('status.out_of_scope');
      case 'chit_chat':
        return t('status.replying');
      case 'eligibility':
        return t('status.eligibility');
      default:
        return t('status.searching');
    }
  }

  function renderFinal(turn, r) {
    const td = turnData.get(turn);
    td.citations = r.citations || [];
    const answer = td.answer;
    answer.replaceChildren();
    answer.classList.toggle('refusal', !!r.refused);
    answer.classList.toggle('script-indic', !!scriptClass(r.answer));

    if (r.refused) {
      renderRefusal(answer, r);
    } else {
      if (r.degraded) {
        answer.append(el('p', { class: 'notice' },
          el('strong', { text: t('degraded.title') + ' ' }),
          r.degraded_reason ? t('degraded.because', { reason: r.degraded_reason }) : t('degraded.plain')));
      }
      if (r.eligibility) renderEligibility(answer, r, td.question);
      else renderAnswerBody(answer, r);
      renderSuggestions(answer, r);
      // For an ambiguous question the readings belong right under the question back to the
      // user, before the closest match's quote.
      const sugg = answer.querySelector('.suggestions');
      const prose = answer.querySelector('.prose');
      if (sugg && prose && r.route === 'ambiguous') prose.after(sugg);
      renderSupporting(answer, r);
    }
    answer.append(renderDetails(r));
    turn.dataset.state = 'done';
    updateEdition(r.citations && r.citations[0] && r.citations[0].edition);

    const plain = stripMarkers(r.answer || '').slice(0, 300);
    announce(r.refused
      ? t('announce.refused', { reason: r.refusal_reason || '' })
      : t('announce.answer', { answer: plain }) + (td.citations.length ? ' ' + t('announce.quotes', { n: td.citations.length }) : ''));
  }

  const stripMarkers = (s) => s.replace(/\s*\[\d+(?:\s*,\s*\d+)*\]/g, '');

  function renderRefusal(answer, r) {
    answer.append(
      el('h3', { class: 'refusal-title', text: t('refusal.title') }),
      el('p', { text: r.answer }));
    if (r.refusal_reason) {
      answer.append(el('p', { class: 'refusal-reason' }, el('strong', { text: t('refusal.why') + ' ' }), r.refusal_reason));
    }
    const kind = r.routing && r.routing.out_of_scope;
    const where = el('ul', { class: 'where' },
      el('li', {}, t('where.official') + ' ',
        el('a', { href: pdfHref(), target: '_blank', rel: 'noopener', text: t('where.official_link') }),
        t('where.official_after')));
    if (kind === 'other_law') {
      where.append(el('li', { text: t('where.other_law') }));
    }
    if (kind === 'case_law') {
      where.append(el('li', { text: t('where.case_law') }));
    }
    where.append(el('li', { text: t('where.legal_aid') }));
    answer.append(el('h4', { class: 'where-heading', text: t('where.heading') }), where);
  }

  /**
   * The answer text with [n] markers as chips. An extractive answer is a series of quote
   * blocks ("On “x”: Article 22(1) (Title): “…” [1] (notes)"); those blocks are shown as quote
   * cards rather than repeated as plain text. Blocks that are not quotes stay prose.
   */
  function renderAnswerBody(answer, r) {
    const citations = r.citations || [];
    const blocks = (r.answer || '').split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
    const prose = el('div', { class: 'prose' });
    const placed = new Set();
    const cards = [];

    for (const block of blocks) {
      const c = r.llm_used ? null : citations.find((c) =>
        !placed.has(c.n) && block.includes('[' + c.n + ']') && block.includes(c.quote.slice(0, 40)));
      if (c) {
        placed.add(c.n);
        const at = block.indexOf(c.label + ' (');
        const lead = at > 0 ? block.slice(0, at).replace(/[:—–-]\s*$/, '').trim() : '';
        cards.push(quoteCard(c, lead));
      } else {
        prose.append(paragraph(block, citations));
      }
    }
    if (prose.childNodes.length) answer.append(prose);

    const rest = citations.filter((c) => !placed.has(c.n)).map((c) => quoteCard(c));
    if (cards.length || rest.length) {
      const quotes = el('div', { class: 'quotes' });
      // After LLM prose the quotes are the evidence; in extractive mode they are the answer.
      if (r.llm_used || prose.childNodes.length) {
        quotes.append(el('h3', { class: 'quotes-heading', text: t('quotes.heading') }));
      }
      quotes.append(...cards, ...rest);
      answer.append(quotes);
    }
    if (!answer.childNodes.length) {
      answer.append(el('p', { class: 'muted', text: t('answer.empty') }));
    }
  }

  // ---------------------------------------------------------------------------------------
  // Eligibility: the verdict, the criteria as a checklist with their quotes, and a form that
  // asks for exactly the facts the checker still needs.

  // Functions, so that the labels are read in the language of the moment.
  const VERDICTS = () => ({
    not_eligible: { title: t('verdict.not_eligible'), icon: '✗' },
    need_more_info: { title: t('verdict.need_more_info'), icon: '?' },
    likely_eligible: { title: t('verdict.likely_eligible'), icon: '✓' },
  });
  const STATUSES = () => ({
    not_met: { icon: '✗', label: t('criterion.not_met') },
    unknown: { icon: '?', label: t('criterion.unknown') },
    met: { icon: '✓', label: t('criterion.met') },
    note: { icon: '•', label: t('criterion.note') },
  });

  /** The facts sent, by their ids as words ("citizen: yes"): the ids are the server's. */
  function factsText(facts) {
    return Object.entries(facts)
      .map(([k, v]) => k.replace(/_/g, ' ') + ': ' + (v === true ? t('fact.yes') : v === false ? t('fact.no') : v))
      .join(', ');
  }

  function renderEligibility(answer, r, question) {
    const e = r.eligibility;
    const citations = r.citations || [];
    const v = VERDICTS()[e.verdict] || { title: e.verdict, icon: '' };
    const lead = (r.answer || '').split(/\n\s*\n/)[0] || '';
    answer.append(el('section', { class: 'verdict verdict-' + e.verdict, 'aria-label': t('verdict.label') },
      el('h3', { class: 'verdict-title' },
        el('span', { class: 'verdict-icon', 'aria-hidden': 'true', text: v.icon }), ' ',
        v.title + ' — ' + e.office_name),
      el('p', {}, withChips(capitalise(lead.replace(/^[^:]*:\s*/, '')), citations))));

    if (e.verdict === 'need_more_info' && e.missing_facts.length) {
      answer.append(factsForm(e, question));
    }

    const statuses = STATUSES();
    // A criterion the verdict does not turn on (another already rules the asker out) is moot:
    // listed apart, folded, and not quoted.
    const item = (c) => {
      const st = statuses[c.status] || { icon: '', label: c.status };
      const cite = citations.find((x) => x.n === c.citation);
      // The checker names facts by id ("holds_office_of_profit: no"); shown as words.
      const detail = c.status === 'unknown' ? '' : c.detail.replace(/_/g, ' ');
      return el('li', { class: 'criterion status-' + c.status, 'data-criterion': c.id },
        el('span', { class: 'criterion-icon', 'aria-hidden': 'true', text: st.icon }),
        el('span', { class: 'sr-only', text: t('criterion.sr', { status: st.label }) + ' ' }),
        el('div', { class: 'criterion-body' },
          el('p', { class: 'criterion-quote', lang: 'en' }, cite ? chip(cite) : null, ' “' + c.quote + '”'),
          detail ? el('p', { class: 'criterion-detail', text: detail }) : null));
    };
    const list = el('ul', { class: 'checklist', 'aria-label': t('checklist.heading') },
      e.criteria.filter((c) => !c.moot).map(item));
    answer.append(el('h4', { class: 'checklist-heading', text: t('checklist.heading') }), list);
    const moot = e.criteria.filter((c) => c.moot);
    if (moot.length) {
      answer.append(el('details', { class: 'checklist-moot' },
        el('summary', { text: t('checklist.moot', { n: moot.length }) }),
        el('ul', { class: 'checklist' }, moot.map(item))));
    }
    answer.append(el('p', { class: 'eligibility-note muted', text: e.note }));
    if (citations.length) {
      answer.append(el('details', { class: 'eligibility-quotes' },
        el('summary', { text: t('eligibility.quoted', { n: citations.length }) }),
        el('div', { class: 'quotes' }, citations.map((c) => quoteCard(c)))));
    }
  }

  /** A form for the missing facts; submitting re-asks the question with every fact known. */
  let formSeq = 0;
  function factsForm(e, question) {
    const seq = ++formSeq;
    const fields = e.missing_facts.map((f) => {
      const id = 'fact-' + seq + '-' + f.id;
      if (f.kind === 'number') {
        return el('div', { class: 'fact-field' },
          el('label', { for: id, text: f.question }),
          el('input', { id, name: f.id, type: 'number', min: '0', max: '150', step: '1', inputmode: 'numeric' }));
      }
      return el('fieldset', { class: 'fact-field' },
        el('legend', { text: f.question }),
        el('label', {}, el('input', { type: 'radio', name: f.id, value: 'yes' }), ' ' + t('form.yes')),
        el('label', {}, el('input', { type: 'radio', name: f.id, value: 'no' }), ' ' + t('form.no')));
    });
    const error = el('p', { class: 'form-error', role: 'alert' });
    const form = el('form', { class: 'facts-form', 'aria-label': t('form.label') },
      el('h4', { text: t('form.heading') }),
      el('p', { class: 'muted', text: t('form.privacy') }),
      ...fields,
      error,
      el('button', { type: 'submit', class: 'btn btn-primary', text: t('form.submit') }));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const facts = Object.assign({}, e.facts);
      let answered = 0;
      for (const f of e.missing_facts) {
        if (f.kind === 'number') {
          const input = form.querySelector('input[name="' + f.id + '"]');
          if (input.value !== '') { facts[f.id] = Number(input.value); answered++; }
        } else {
          const picked = form.querySelector('input[name="' + f.id + '"]:checked');
          if (picked) { facts[f.id] = picked.value === 'yes'; answered++; }
        }
      }
      if (!answered) { error.textContent = t('form.none'); return; }
      ask(question, facts);
    });
    return form;
  }

  /** One paragraph (or list, for LLM bullet lines) with chips for its markers. */
  function paragraph(block, citations) {
    const lines = block.split('\n');
    if (lines.length > 1 && lines.every((l) => /^\s*(?:[-*•]|\d+[.)])\s+/.test(l))) {
      return el('ul', {}, lines.map((l) => el('li', {}, withChips(l.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, ''), citations))));
    }
    const p = el('p');
    lines.forEach((l, i) => {
      if (i) p.append(el('br'));
      p.append(withChips(l, citations));
    });
    return p;
  }

  /** Text with "[1]" / "[1, 2]" replaced by chip buttons; unknown numbers stay literal. */
  function withChips(text, citations) {
    const frag = document.createDocumentFragment();
    const re = /\[(\d+(?:\s*,\s*\d+)*)\]/g;
    let last = 0;
    let m;
    while ((m = re.exec(text))) {
      const cs = m[1].split(',').map((n) => citations.find((c) => c.n === Number(n)));
      if (cs.some((c) => !c)) continue;
      frag.append(text.slice(last, m.index));
      cs.forEach((c) => frag.append(chip(c)));
      last = m.index + m[0].length;
    }
    frag.append(text.slice(last));
    return frag;
  }

  function chip(c) {
    return el('button', {
      type: 'button', class: 'chip', 'data-ref': c.ref, 'data-n': c.n, 'aria-haspopup': 'dialog',
      title: t('chip.title', { label: c.label + (c.title ? ' — ' + c.title : ''), n: c.n }),
      text: shortLabel(c.label) || String(c.n),
    });
  }

  function quoteCard(c, lead) {
    const notes = (c.amendments || []).filter((a) => !c.clause || !a.clause || a.clause === c.clause);
    return el('figure', { class: 'quote' },
      lead ? el('p', { class: 'lead', text: lead }) : null,
      el('figcaption', {},
        chip(c), ' ',
        el('span', { class: 'quote-title', text: c.title }), ' ',
        el('a', { class: 'page-link', href: pdfHref(c.page), target: '_blank', rel: 'noopener',
          text: t('quote.page', { page: c.page }), title: t('quote.page_title', { page: c.page }) })),
      // The quotes are the official English text, whatever the interface language.
      el('blockquote', { lang: 'en', text: '“' + c.quote + (c.truncated ? ' …' : '') + '”' }),
      notes.length ? el('ul', { class: 'amend-notes', 'aria-label': t('quote.notes') },
        notes.map(amendmentNote)) : null);
  }

  // A court's ruling on the amendment (the footnote's own words) stands out from the Act
  // and date: "This amendment has been struck down by the Supreme Court …".
  function amendmentNote(a) {
    if (!a.ruling || !a.note.endsWith(a.ruling)) return el('li', { text: a.note });
    const act = a.note.slice(0, a.note.length - a.ruling.length).trim();
    return el('li', {}, act ? act + ' ' : '', el('strong', { class: 'ruling', text: a.ruling }));
  }

  function renderSuggestions(answer, r) {
    let items = (r.suggestions || []).map((s) => ({ question: s.question, label: s.question }));
    if (!items.length && r.route === 'chit_chat') {
      items = [...document.querySelectorAll('#intro .suggestion')]
        .map((b) => ({ question: b.dataset.question, label: b.dataset.question }));
    }
    if (!items.length) return;
    answer.append(el('div', { class: 'suggestions' },
      el('p', { class: 'suggestions-label', text: r.route === 'ambiguous' ? t('suggestions.did_you_mean') : t('suggestions.you_could_ask') }),
      el('ul', {}, items.map((s) => el('li', {},
        el('button', { type: 'button', class: 'suggestion', 'data-question': s.question, text: s.label }))))));
  }

  function renderSupporting(answer, r) {
    const cited = new Set((r.citations || []).map((c) => c.ref));
    const items = (r.supporting || []).filter((s) => !cited.has(s.ref));
    if (!items.length) return;
    answer.append(el('div', { class: 'supporting' },
      el('p', { class: 'supporting-label', text: t('supporting.label') }),
      el('ul', {}, items.map((s) => el('li', {},
        el('button', { type: 'button', class: 'ref-link', 'data-ref': s.ref, 'aria-haspopup': 'dialog' },
          refLabel(s.ref) + ' — ' + s.title),
        s.relation ? el('span', { class: 'muted', text: ' (' + relationText(s.relation) + ')' }) : null)))));
  }

  /** "cited by SCH-7" -> "cited by Seventh Schedule". */
  function relationText(relation) {
    return relation.replace(/\b(by|cites)\s+([0-9A-Z][0-9A-Z-]*)$/, (m, w, ref) => w + ' ' + refLabel(ref));
  }

  /** "Details": how the answer was made, for the curious and for advocates checking it. */
  function renderDetails(r) {
    const routing = r.routing || {};
    const rows = [];
    const row = (k, v) => { if (v != null && v !== '' && !(Array.isArray(v) && !v.length)) rows.push([k, v]); };
    // Route names, modes and timing legs are the API's own words, shown as they are.
    row(t('details.route'), (r.route || routing.route || '–').replace(/_/g, ' ') + (routing.router ? ' (' + t('details.router', { router: routing.router }) + ')' : ''));
    // Only when a search ran (refusals by the router and small talk search nothing).
    if (r.retrieval && routing.rewritten_query) row(t('details.searched_for'), routing.rewritten_query);
    row(t('details.sub_questions'), (routing.sub_questions || []).length > 1 ? el('ol', {}, routing.sub_questions.map((s) => el('li', { text: s }))) : null);
    row(t('details.refs'), (routing.refs || []).join(', '));
    row(t('details.follows_up'), (routing.context_refs || []).join(', '));
    if (routing.premise_check) row(t('details.premise'), t('details.premise_text'));
    if (routing.out_of_scope) row(t('details.out_of_scope'), routing.out_of_scope.replace(/_/g, ' '));
    row(t('details.mode'), (r.mode || '–') + (r.llm_used ? ' (' + t('details.llm_used') + ')' : '') +
      (r.degraded ? ' — ' + t('details.degraded', { reason: r.degraded_reason || t('details.unknown_reason') }) : ''));
    const g = r.guards || {};
    if (r.llm_used && (g.stripped_citations || g.dropped_quotes || g.dropped_figures)) {
      row(t('details.checks'), t('details.checks_text', { citations: g.stripped_citations, quotes: g.dropped_quotes, figures: g.dropped_figures }));
    }
    const conf = r.retrieval && r.retrieval.confidence;
    row(t('details.confidence'), typeof conf === 'number' ? conf.toFixed(2) : null);
    const tm = r.timings_ms || {};
    row(t('details.timings'), ['route', 'retrieve', 'quote', 'llm', 'total'].map((k) => k + ' ' + ms(tm[k])).join(' · '));
    row(t('details.request_id'), el('span', {},
      el('code', { class: 'request-id', text: r.request_id }), ' ',
      el('a', { href: '/v1/answers/' + encodeURIComponent(r.request_id), target: '_blank', rel: 'noopener', text: t('details.stored') })));

    const dl = el('dl', {}, rows.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', {}, v)]));
    const results = (r.retrieval && r.retrieval.results) || [];
    let table = null;
    if (results.length) {
      // Focusable so keyboard users can scroll it sideways on a narrow screen.
      table = el('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('details.found') }, el('table', {},
        el('caption', { text: t('details.found') }),
        el('thead', {}, el('tr', {}, ['#', t('details.col.provision'), t('details.col.score'), t('details.col.found_by'), t('details.col.page')]
          .map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, results.map((h, i) => el('tr', {},
          el('td', { text: String(i + 1) }),
          el('td', {}, el('button', { type: 'button', class: 'ref-link', 'data-ref': h.ref, 'aria-haspopup': 'dialog' },
            refLabel(h.ref) + (h.clause || '') + ' — ' + h.title)),
          el('td', { class: 'num', text: typeof h.score === 'number' ? h.score.toFixed(3) : '–' }),
          el('td', {}, legsText(h)),
          el('td', { class: 'num', text: String(h.page || '–') }))))));
    }
    return el('details', { class: 'details' }, el('summary', { text: t('details.summary') }), dl, table);
  }

  /** Which retrieval legs found a provision, best rank first: "dense #1, lexical #3". */
  function legsText(h) {
    const legs = Object.entries(h.legs || {}).sort((a, b) => a[1].rank - b[1].rank)
      .map(([name, v]) => name + ' #' + v.rank);
    if (h.pinned) legs.unshift(t('details.pinned'));
    if (!legs.length) return ['–'];
    return legs.flatMap((l, i) => [i ? ', ' : null, el('span', { class: 'leg', text: l })]);
  }

  function renderError(turn, question, e) {
    const td = turnData.get(turn);
    td.answer.className = 'answer error';
    td.answer.replaceChildren(
      el('p', { class: 'inline-error', role: 'alert' },
        el('strong', { text: t('error.no_answer') + ' ' }), e.message || t('error.unknown'),
        // The server's error code helps a bug report; our own client-side codes would not.
        e.code && !['network', 'incomplete'].includes(e.code) ? el('span', { class: 'muted', text: ' (' + e.code + ')' }) : null),
      el('button', { type: 'button', class: 'btn suggestion', 'data-question': question, text: t('error.retry') }));
    turn.dataset.state = 'error';
  }

  /** The disclaimer names the edition answers cite (before any, the one index.html names). */
  function updateEdition(edition) {
    const line = $('#disclaimer');
    if (edition) state.edition = edition;
    line.textContent = t('disclaimer', { edition: state.edition || line.dataset.edition });
  }

  // ---------------------------------------------------------------------------------------
  // Delegated clicks.

  function onDocumentClick(ev) {
    const target = ev.target.closest('button, a');
    if (!target) return;
    if (target.matches('button.chip')) {
      const turn = target.closest('.turn');
      const td = turn && turnData.get(turn);
      const c = td && td.citations.find((x) => String(x.n) === target.dataset.n && x.ref === target.dataset.ref);
      openDrawer(target.dataset.ref, c ? { span: c.span, page: c.page, cls: 'quoted' } : null, target);
    } else if (target.matches('button.suggestion[data-question]')) {
      const q = target.dataset.question;
      if (state.busy) { $('#question').value = q; $('#question').focus(); return; }
      ask(q);
    } else if (target.matches('button.ref-link[data-ref]')) {
      const inDrawer = !!target.closest('#drawer');
      openDrawer(target.dataset.ref, target.dataset.clause ? { clause: target.dataset.clause, cls: 'target' } : null,
        target, inDrawer);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Browse: table of contents and the jump box.

  function initBrowse() {
    $('#browse-toggle').addEventListener('click', () => {
      showView($('#browse').hidden ? 'browse' : 'chat');
      if (!$('#browse').hidden) $('#jump').focus();
      else $('#question').focus();
    });
    $('#jump-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const input = $('#jump');
      const err = $('#jump-error');
      const value = input.value.trim();
      const fail = (msg) => {
        err.textContent = msg;
        err.hidden = false;
        input.setAttribute('aria-invalid', 'true');
      };
      err.hidden = true;
      input.removeAttribute('aria-invalid');
      if (!value) return fail(t('jump.empty'));
      try {
        const view = await getJSON('/v1/provisions/' + encodeURIComponent(value));
        state.provisions.set(view.ref, Promise.resolve(view));
        openDrawer(view.ref, null, input);
      } catch (e) {
        fail(e.code === 'unknown_ref' || e.status === 404
          ? t('jump.no_match', { value })
          : t('jump.failed', { value, message: e.message }));
      }
    });
  }

  function showView(name) {
    state.view = name;
    const browse = name === 'browse';
    const changes = name === 'changes';
    $('#browse').hidden = !browse;
    $('#changes').hidden = !changes;
    $('#chat').hidden = browse || changes;
    const btn = $('#browse-toggle');
    btn.setAttribute('aria-expanded', String(browse));
    btn.textContent = browse ? t('view.back') : t('browse.toggle');
    const cbtn = $('#changes-toggle');
    cbtn.setAttribute('aria-expanded', String(changes));
    cbtn.textContent = changes ? t('view.back') : t('changes.toggle');
    if (browse) renderToc();
    if (changes) loadChanges();
  }

  // ---------------------------------------------------------------------------------------
  // What changed: two stored editions compared (GET /v1/editions, GET /v1/diff).

  function initChanges() {
    $('#changes-toggle').addEventListener('click', () => {
      showView($('#changes').hidden ? 'changes' : 'chat');
      if ($('#changes').hidden) $('#question').focus();
    });
    $('#changes-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      renderChanges($('#changes-from').value, $('#changes-to').value);
    });
  }

  async function loadChanges() {
    if (state.changesLoaded) return;
    const list = $('#changes-list');
    list.replaceChildren(el('p', { class: 'muted', text: t('changes.loading') }));
    let eds;
    try {
      eds = await getJSON('/v1/editions');
    } catch (e) {
      list.replaceChildren(el('p', { class: 'inline-error', text: t('changes.load_failed', { message: e.message }) }));
      return;
    }
    const option = (e) => el('option', { value: e.date, text: e.label + ' (' + e.date + ')' });
    $('#changes-from').replaceChildren(...eds.editions.map(option));
    $('#changes-to').replaceChildren(...eds.editions.map(option));
    if (eds.editions.length < 2) {
      list.replaceChildren(el('p', { class: 'muted', text: t('changes.one_edition') }));
      return;
    }
    $('#changes-to').value = eds.editions[0].date;
    $('#changes-from').value = eds.editions[1].date;
    state.changesLoaded = true;
    renderChanges(eds.editions[1].date, eds.editions[0].date);
  }

  async function renderChanges(from, to) {
    const list = $('#changes-list');
    const err = $('#changes-error');
    err.hidden = true;
    state.changesShown = { from, to };
    list.replaceChildren(el('p', { class: 'muted', text: t('changes.comparing') }));
    let d;
    try {
      d = await getJSON('/v1/diff?from=' + encodeURIComponent(from) + '&to=' + encodeURIComponent(to));
    } catch (e) {
      list.replaceChildren();
      err.textContent = e.message;
      err.hidden = false;
      return;
    }
    const c = d.counts;
    const groups = [
      ['amended', t('changes.amended'), t('changes.amended_what')],
      ['inserted', t('changes.inserted'), t('changes.inserted_what')],
      ['omitted', t('changes.omitted'), t('changes.omitted_what')],
    ];
    const out = [el('p', { class: 'changes-summary', text: t('changes.summary', {
      amended: c.amended, inserted: c.inserted, omitted: c.omitted, revised: c.revised, unchanged: c.unchanged,
      from: d.from.label, to: d.to.label }) })];
    for (const [kind, title, what] of groups) {
      const items = d.changes.filter((x) => x.kind === kind);
      if (!items.length) continue;
      out.push(el('h3', { text: title + ' (' + items.length + ')' }), el('p', { class: 'muted', text: what }),
        el('ul', { class: 'change-list', 'data-kind': kind }, ...items.map(changeItem)));
    }
    const revised = d.changes.filter((x) => x.kind === 'revised');
    if (revised.length) {
      out.push(el('details', { class: 'revised' },
        el('summary', { text: t('changes.revised', { n: revised.length }) }),
        el('ul', { class: 'change-list', 'data-kind': 'revised' }, ...revised.map(changeItem))));
    }
    list.replaceChildren(...out);
  }

  function changeItem(x) {
    const acts = (x.acts || []).map((a) => {
      const when = longDate(a.effective_from);
      // The Act's name and the kind of change ("inserted") are the footnote's words.
      return t('changes.act', { act: a.instrument }) + (a.clause ? ' (' + a.kind + ' ' + a.clause + ')' : ' (' + a.kind + ')') + (when ? ', ' + t('amend.from', { date: when }) : '');
    });
    return el('li', { class: 'change', 'data-ref': x.id },
      el('button', { type: 'button', class: 'ref-link', 'data-ref': x.id, text: x.heading }),
      acts.length ? el('p', { class: 'acts', text: t('changes.by', { acts: acts.join('; ') }) }) : null,
      x.title_from ? el('p', { class: 'muted', text: t('changes.title', { from: x.title_from, to: x.title_to }) }) : null,
      x.words && x.words.length ? wordDiff(x.words) : null);
  }

  /** Word runs with long unchanged stretches cut to their ends. */
  function wordDiff(runs) {
    return el('p', { class: 'word-diff' }, ...runs.map((r) => {
      if (r.op === 'added') return el('ins', { text: r.text });
      if (r.op === 'removed') return el('del', { text: r.text });
      const w = r.text.split(' ');
      return w.length > 16 ? w.slice(0, 6).join(' ') + ' … ' + w.slice(-6).join(' ') : r.text;
    }));
  }

  function loadToc() {
    if (!state.toc) {
      state.toc = getJSON('/v1/provisions').then((d) => {
        for (const p of d.provisions) tocIndex.set(p.ref, p);
        return d.provisions;
      });
      state.toc.catch(() => { state.toc = null; }); // let a later visit retry
    }
    return state.toc;
  }

  async function renderToc() {
    if (state.tocRendered) return;
    const box = $('#toc');
    let list;
    try {
      list = await loadToc();
    } catch (e) {
      box.replaceChildren(el('p', { class: 'inline-error', role: 'alert' },
        t('toc.failed', { message: e.message }) + ' ',
        el('button', { type: 'button', class: 'btn', id: 'toc-retry', text: t('toc.retry') })));
      $('#toc-retry').addEventListener('click', () => { box.replaceChildren(el('p', { class: 'muted', text: t('toc.loading') })); renderToc(); });
      return;
    }
    state.tocRendered = true;

    // Group in constitutional order: Preamble, Parts (with their chapters), Schedules, Appendices.
    const groups = [];
    let cur = null;
    for (const p of list) {
      const key = p.kind === 'article' ? 'part:' + (p.part_number || '') : p.kind;
      if (!cur || cur.key !== key) {
        cur = { key, kind: p.kind, items: [], first: p };
        groups.push(cur);
      }
      cur.items.push(p);
    }
    const sections = groups.map((g) => {
      if (g.kind === 'preamble') {
        return el('div', { class: 'toc-single' }, ...g.items.map(tocEntry));
      }
      let title;
      let range = '';
      if (g.kind === 'article') {
        title = g.first.part_number ? t('label.part', { n: g.first.part_number }) + (g.first.part_title ? ' — ' + g.first.part_title : '') : t('toc.articles');
        const last = g.items[g.items.length - 1];
        range = g.items.length > 1 ? t('toc.article_range', { from: g.first.number, to: last.number }) : t('label.article', { n: g.first.number });
      } else {
        title = g.kind === 'schedule' ? t('toc.schedules') : g.kind === 'appendix' ? t('toc.appendices') : capitalise(g.kind);
        range = t('toc.items', { n: g.items.length });
      }
      const ul = el('ul', { class: 'toc-list' });
      let chapter = null;
      let subheading = null;
      for (const p of g.items) {
        if (p.chapter && p.chapter !== chapter) {
          chapter = p.chapter;
          subheading = null;
          ul.append(el('li', { class: 'toc-chapter', text: p.chapter }));
        }
        // Part III's groups ("Right to Equality", "Right to Freedom", …) and the like.
        if (p.subheading && p.subheading !== subheading) {
          subheading = p.subheading;
          ul.append(el('li', { class: 'toc-subheading', text: p.subheading }));
        }
        ul.append(el('li', {}, tocEntry(p)));
      }
      return el('details', { class: 'toc-part' },
        el('summary', {}, el('span', { class: 'toc-part-title', text: title }), ' ', el('span', { class: 'muted', text: range })),
        ul);
    });
    box.replaceChildren(el('p', { class: 'muted', text: t('toc.count', { n: list.length }) }), ...sections);
  }

  function tocEntry(p) {
    const omitted = p.status === 'omitted';
    const article = p.kind === 'article';
    const named = p.kind === 'schedule' || p.kind === 'appendix';
    return el('button', { type: 'button', class: 'ref-link toc-entry' + (omitted ? ' omitted' : '') + (named ? ' toc-named' : ''), 'data-ref': p.ref, 'aria-haspopup': 'dialog' },
      article ? el('span', { class: 'toc-num', text: p.number + '.' })
        : named ? el('span', { class: 'toc-name', text: provisionLabel(p) }) : null,
      el('span', { class: 'toc-title', text: p.title || p.ref }),
      omitted ? el('span', { class: 'tag', text: t('toc.omitted') }) : null);
  }

  // ---------------------------------------------------------------------------------------
  // The provision drawer: a modal dialog. The page behind it is made inert while it is open.

  async function showAsOf(date) {
    const box = $('#asof-result');
    const ref = state.drawer.asOfRef;
    box.hidden = false;
    box.replaceChildren(el('p', { class: 'muted', text: t('asof.rebuilding') }));
    let r;
    try {
      r = await getJSON('/v1/provisions/' + encodeURIComponent(ref) + '/as-of?date=' + encodeURIComponent(date));
    } catch (e) {
      box.replaceChildren(el('p', { class: 'inline-error', text: e.message }));
      return;
    }
    const parts = [el('p', { class: 'asof-notice', text: r.notice })];
    if (!r.existed) {
      parts.push(el('p', { text: (r.inserted_by && r.inserted_by.act)
        ? t('asof.not_yet', { date: longDate(r.date), act: r.inserted_by.act })
        : t('asof.not_yet_unnamed', { date: longDate(r.date) }) }));
    } else if (r.as_printed) {
      parts.push(el('p', { text: t('asof.as_printed', { date: longDate(r.date) }) }));
    } else {
      // The rebuilt text, each reconstructed passage marked and titled with its footnote.
      const chars = Array.from(r.text);
      const text = el('div', { class: 'provision-text asof-text' });
      let at = 0;
      for (const sp of r.reconstructed) {
        text.append(chars.slice(at, sp.start).join(''));
        const words = chars.slice(sp.start, sp.end).join('');
        text.append(el('mark', { class: 'reconstructed', title: sp.label, text: words || '⁁' }));
        at = Math.max(at, sp.end);
      }
      text.append(chars.slice(at).join(''));
      parts.push(el('p', { text: t('asof.read', { date: longDate(r.date) }) }), text);
      if (r.reconstructed.length) {
        parts.push(el('ul', { class: 'asof-sources' }, ...r.reconstructed.map((sp) =>
          el('li', { text: capitalise(sp.undo.replace(/_/g, ' ')) + ': ' + sp.source.footnote }))));
      }
    }
    if (r.gaps.length) {
      parts.push(el('p', { class: 'muted', text: t('asof.gaps') }), el('ul', { class: 'asof-gaps' },
        ...r.gaps.map((g) => el('li', { text: capitalise(g.explanation) + (g.source ? ' — ' + g.source.footnote : '') }))));
    }
    box.replaceChildren(...parts);
  }

  function initDrawer() {
    $('#asof-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const date = $('#asof-date').value;
      if (date) showAsOf(date);
    });
    $('#drawer-close').addEventListener('click', closeDrawer);
    $('#drawer-backdrop').addEventListener('click', closeDrawer);
    $('#drawer-back').addEventListener('click', () => {
      const prev = state.drawer.stack.pop();
      if (prev) showProvision(prev.ref, prev.hl);
    });
    document.addEventListener('keydown', (ev) => {
      if (!state.drawer.open) return;
      if (ev.key === 'Escape') { ev.preventDefault(); closeDrawer(); }
      else if (ev.key === 'Tab') trapFocus(ev);
    });
  }

  function trapFocus(ev) {
    const items = [...$('#drawer').querySelectorAll('button, a[href], [tabindex="0"]')]
      .filter((n) => n.getClientRects().length > 0); // visible ones only
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (ev.shiftKey && (document.activeElement === first || !$('#drawer').contains(document.activeElement))) {
      ev.preventDefault(); last.focus();
    } else if (!ev.shiftKey && document.activeElement === last) {
      ev.preventDefault(); first.focus();
    }
  }

  /**
   * Opens (or, from inside the drawer, navigates) to a provision. hl = {span, cls, page} to
   * highlight a quoted span, or {clause, cls} to highlight a clause by its label.
   */
  function openDrawer(ref, hl, opener, fromInside) {
    const d = state.drawer;
    if (!d.open) {
      d.open = true;
      d.opener = opener || document.activeElement;
      d.stack = [];
      $('#drawer-backdrop').hidden = false;
      $('#drawer').hidden = false;
      for (const sel of ['header.top', '#main', 'footer.bottom']) $(sel).inert = true;
      document.body.classList.add('drawer-open');
    } else if (fromInside && d.current) {
      d.stack.push(d.current);
    } else {
      d.stack = []; // a new chip while open (not possible while modal, but be safe)
    }
    showProvision(ref, hl);
  }

  function closeDrawer() {
    const d = state.drawer;
    if (!d.open) return;
    d.open = false;
    d.token++; // ignore a fetch still in flight
    $('#drawer').hidden = true;
    $('#drawer-backdrop').hidden = true;
    for (const sel of ['header.top', '#main', 'footer.bottom']) $(sel).inert = false;
    document.body.classList.remove('drawer-open');
    const back = d.opener && d.opener.isConnected ? d.opener : $('#question');
    if (back) back.focus();
  }

  async function showProvision(ref, hl) {
    const d = state.drawer;
    const token = ++d.token;
    d.current = { ref, hl };
    $('#drawer-back').hidden = !d.stack.length;
    // The label alone until the text arrives (a TOC entry knows it: "Article 21A").
    const known = tocIndex.get(ref);
    $('#drawer-title').textContent = known ? provisionLabel(known, true) : refLabel(ref);
    $('#drawer-kicker').textContent = '';
    $('#drawer-status').hidden = true;
    $('#drawer-error').hidden = true;
    $('#drawer-text').replaceChildren(el('p', { class: 'muted', text: t('drawer.loading') }));
    for (const id of ['#drawer-amendments', '#drawer-outgoing', '#drawer-incoming']) $(id).hidden = true;
    $('#drawer-title').focus({ preventScroll: true });

    let view;
    try {
      view = await getProvision(ref);
    } catch (e) {
      if (token !== d.token) return;
      $('#drawer-text').replaceChildren();
      $('#drawer-error').textContent = e.code === 'unknown_ref'
        ? t('drawer.unknown', { ref })
        : t('drawer.failed', { message: e.message });
      $('#drawer-error').hidden = false;
      return;
    }
    if (token !== d.token) return; // the user moved on
    renderProvision(view, hl);
  }

  function renderProvision(v, hl) {
    // Title "Article 22 — Protection against arrest …"; above it, where it sits in the text.
    const kindLabel = provisionLabel(v, true);
    const kicker = [];
    if (v.part) kicker.push(t('label.part', { n: v.part.number }) + (v.part.title ? ' — ' + v.part.title : ''));
    if (v.chapter) kicker.push(v.chapter);
    if (v.subheading) kicker.push(v.subheading);
    $('#drawer-kicker').textContent = kicker.join(' · ');
    $('#drawer-title').textContent = v.title && v.title !== kindLabel ? kindLabel + ' — ' + v.title : kindLabel;
    updateEdition(v.edition);

    const status = $('#drawer-status');
    status.hidden = v.status !== 'omitted';
    status.textContent = t('drawer.omitted');

    const page = (hl && hl.page) || (v.pages && v.pages.start);
    const pdf = $('#drawer-pdf');
    pdf.href = pdfHref(page);
    pdf.textContent = t('drawer.pdf_page', { page });

    // Highlight: a citation's span, or the clause a cross-reference points at.
    let range = null;
    if (hl && hl.span) range = hl.span;
    else if (hl && hl.clause) {
      const c = (v.clauses || []).find((x) => x.label === hl.clause);
      if (c) range = { start: c.start, end: c.end };
    }
    const box = $('#drawer-text');
    box.replaceChildren(...textWithMark(v.text || '', range, (hl && hl.cls) || 'quoted'));
    const mark = box.querySelector('mark');
    $('#drawer-body').scrollTop = 0;
    if (mark) mark.scrollIntoView({ block: 'center' });

    renderAmendments(v.amendments || [], v);
    renderXrefs(v.cross_refs || { outgoing: [], incoming: [] });
  }

  /** Splits text at code-point offsets (the API's offsets count Unicode scalars, not UTF-16). */
  function textWithMark(text, range, cls) {
    if (!range) return [text];
    const chars = Array.from(text);
    const start = Math.max(0, Math.min(range.start, chars.length));
    const end = Math.max(start, Math.min(range.end, chars.length));
    if (end === start) return [text];
    return [
      chars.slice(0, start).join(''),
      el('mark', { class: cls, text: chars.slice(start, end).join('') }),
      chars.slice(end).join(''),
    ];
  }

  function renderAmendments(list, v) {
    const sec = $('#drawer-amendments');
    sec.hidden = !list.length;
    state.drawer.asOfRef = v && v.ref;
    $('#asof-result').hidden = true;
    $('#asof-date').max = v && v.edition_date ? v.edition_date : '';
    // A timeline: oldest change first; notes without a date keep the print's order, last.
    const dated = list.map((a, i) => [a, i]).sort((x, y) =>
      (x[0].effective_from || '9999') < (y[0].effective_from || '9999') ? -1
        : (x[0].effective_from || '9999') > (y[0].effective_from || '9999') ? 1 : x[1] - y[1]);
    sec.querySelector('ol').replaceChildren(...dated.map(([a]) => {
      const what = [];
      what.push(capitalise(a.kind || 'amended'));
      if (a.instrument) what.push(' ' + t('amend.by', { act: a.instrument.replace(/^the\s+/i, '') + (a.section ? ', ' + a.section : '') }));
      const when = longDate(a.effective_from) || a.effective_text;
      if (when) what.push(', ' + t('amend.from', { date: when }));
      // The footnote itself only when it says more than "Ins. by … Act (w.e.f. …)", e.g.
      // which words were omitted; or when the parts above could not be read from it.
      const informative = a.raw && (!a.instrument || !/^(ins|subs|omitted|added|inserted|substituted)\b/i.test(a.raw));
      return el('li', {},
        a.clause ? el('span', { class: 'tag', text: a.clause }) : null,
        a.clause ? ' ' : null,
        what.join('') + '.',
        informative ? el('small', { class: 'raw', text: t('amend.footnote', { text: a.raw }) }) : null);
    }));
  }

  /** "2010-04-01" -> "1 April 2010" (day-month-year, as Indian legal texts write dates). */
  function longDate(iso) {
    if (!iso || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
    const d = new Date(iso + 'T00:00:00Z');
    return d.toLocaleDateString(lang === 'hi' ? 'hi-IN' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  }

  function renderXrefs(x) {
    const out = $('#drawer-outgoing');
    const seen = new Set();
    const outgoing = (x.outgoing || []).filter((r) => {
      const k = (r.to || 'part:' + r.to_part) + (r.clause || '');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    out.hidden = !outgoing.length;
    out.querySelector('ul').replaceChildren(...outgoing.map((r) => el('li', {}, r.to
      ? el('button', { type: 'button', class: 'ref-link', 'data-ref': r.to, 'data-clause': r.clause || null },
        refLabel(r.to) + (r.clause || '') + (tocIndex.get(r.to) ? ' — ' + tocIndex.get(r.to).title : ''))
      : el('span', { text: r.to_part ? t('label.part', { n: r.to_part }) : r.surface }))));

    const inc = $('#drawer-incoming');
    const incoming = x.incoming || [];
    inc.hidden = !incoming.length;
    inc.querySelector('ul').replaceChildren(...incoming.map((r) => el('li', {},
      el('button', { type: 'button', class: 'ref-link', 'data-ref': r.from },
        refLabel(r.from) + ' — ' + r.title),
      r.clause ? el('span', { class: 'muted', text: ' (' + t('xref.clause', { clause: r.clause }) + ')' }) : null)));
  }
})();
