package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/report"
)

func htmlPage(t *testing.T) string {
	t.Helper()
	return string(render(t, fixture(t), func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
}

var tagRE = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)`)

// TestHTMLSelfContained: the page uses only the elements the writer
// writes (so no data became markup), one inline script, and nothing that
// could fetch a resource.
func TestHTMLSelfContained(t *testing.T) {
	page := htmlPage(t)
	allowed := strings.Fields(`html head meta title style body header h1 h2 p strong br section table thead tbody
		tr th td div figure svg g rect text figcaption span input select option code small details summary pre b ul li script`)
	for _, m := range tagRE.FindAllStringSubmatch(page, -1) {
		if !slices.Contains(allowed, m[1]) {
			t.Errorf("unexpected element <%s> in the page", m[1])
		}
	}
	if n := strings.Count(page, "<script"); n != 1 {
		t.Errorf("%d script elements, want the one inline script", n)
	}
	for _, bad := range []string{"<script src", "url(", "@import", "http://", "https://", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q: it must load nothing", bad)
		}
	}
	if !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src 'none';`) {
		t.Error("page lacks its Content-Security-Policy")
	}
}

func TestHTMLContent(t *testing.T) {
	page := htmlPage(t)
	for _, want := range []string{
		// One row per case, with its verdict for the filter.
		`<tr class="case" data-status="pass">`,
		`<tr class="case" data-status="fail">`,
		`<tr class="case" data-status="error">`,
		// Hostile text is escaped wherever it lands.
		`x&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;`,
		`evil&lt;img src=x onerror=alert(1)&gt;`,
		// A partial pair marks the argument that differs on both sides.
		`<div class="arg diff">date: &#34;2025-01-02&#34;</div>`,
		`<div class="arg diff">date: &#34;2025-01-03&#34;</div>`,
		`<div class="arg">from: &#34;PAR&#34;</div>`,
		// A call left unpaired beside its tool is compared key by key.
		`<div class="arg diff">city: &#34;Paris, Texas&#34;</div>`,
		`<div class="arg">days: 1</div>`,
		// Charts, the histograms with their axes: bin edges along the
		// bottom, the count up the side.
		`<svg class="histogram"`, `<svg class="tools"`, `<title>book_hotel: 1 missed</title>`,
		`<text class="tick" x="40" y="140">0.0</text>`, `<text class="tick" x="380" y="140">1.0</text>`, `>score</text>`, `rotate(-90)">cases</text>`,
		// How the run was made, and each metric's threshold.
		`<tr><th>command</th><td><code>toolgrade eval --config toolgrade.yaml --html report.html &#39;my cases.jsonl&#39;</code></td></tr>`,
		`<tr><th>date</th><td>2025-01-02 15:04:05 &#43;01:00</td></tr>`,
		`<tr><th>metrics</th><td>tool_correctness <code>{&#34;threshold&#34;:0.8}</code></td></tr>`,
		`<th class="num">threshold</th>`, `<tr><td>tool_correctness</td><td class="num">0.800</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(page, `<tr class="case"`); n != len(fixture(t)) {
		t.Errorf("%d case rows, want %d", n, len(fixture(t)))
	}
	for _, raw := range []string{"<script>alert(1)", "</script><b>bold", "<img src=x"} {
		if strings.Contains(page, raw) {
			t.Errorf("page contains unescaped %q", raw)
		}
	}
}

// TestHTMLWithoutRunInfo: a run that says nothing of itself gets no
// table of it.
func TestHTMLWithoutRunInfo(t *testing.T) {
	var buf bytes.Buffer
	w := report.HTML(&buf)
	var s report.Stats
	for _, r := range fixture(t) {
		s.Add(r)
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(&s); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `<table class="run">`) {
		t.Error("the page describes a run it knows nothing of")
	}
}

// TestHTMLLongRun: past its limits the table lists failing cases and the
// first passing ones, says what it left out, and the histogram still
// counts every case.
func TestHTMLLongRun(t *testing.T) {
	var results []*toolgrade.Result
	for i := range 1500 {
		results = append(results, res("p"+strconv.Itoa(i), 1))
		if i%500 == 0 {
			results = append(results, res("f"+strconv.Itoa(i), 0))
		}
	}
	page := string(render(t, results, func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
	if got, want := strings.Count(page, `<tr class="case" data-status="pass"`), 1000; got != want {
		t.Errorf("%d passing rows, want %d", got, want)
	}
	if got := strings.Count(page, `<tr class="case" data-status="fail"`); got != 3 {
		t.Errorf("%d failing rows, want all 3", got)
	}
	if !strings.Contains(page, "leaves out 0 failing and 500 passing ones") {
		t.Error("the page does not say what it left out")
	}
	if !strings.Contains(page, `<title>0.9–1.0: 1500</title>`) || !strings.Contains(page, `<title>0.0–0.1: 3</title>`) {
		t.Error("the histogram does not count every case")
	}
}

// chromium finds headless Chromium (Debian package chromium), or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium not installed (apt-get install chromium); the browser test needs it")
	return ""
}

// browserHarness loads the report twice in same-origin frames, one plain
// and one with a filter in its URL fragment, then drives the plain one's
// inputs as a user would and records, for each state, how many case rows
// exist, how many are rendered, and what the page's counter says.
const browserHarness = `<!doctype html>
<html><body><pre id="out">pending</pre>
<iframe id="plain" src="/report.html"></iframe>
<iframe id="fragment" src="/report.html#status=error"></iframe>
<iframe id="long" src="/long.html" style="width: 1000px; height: 600px"></iframe>
<script>
window.addEventListener("load", function () {
  function state(frame) {
    var doc = frame.contentDocument;
    var rows = doc.querySelectorAll("#case-table > tbody > tr.case");
    var rendered = 0;
    rows.forEach(function (r) { if (r.getClientRects().length > 0) { rendered++; } });
    return {rows: rows.length, rendered: rendered, counter: doc.getElementById("shown").textContent};
  }
  var plain = document.getElementById("plain"), doc = plain.contentDocument;
  function type(text) { var q = doc.getElementById("q"); q.value = text; q.dispatchEvent(new Event("input")); }
  function pick(v) { var s = doc.getElementById("status"); s.value = v; s.dispatchEvent(new Event("change")); }
  var out = {};
  // The details shown without a click, by the row's verdict.
  var shownDetails = {pass: 0, fail: 0, error: 0};
  doc.querySelectorAll("#case-table > tbody > tr.case").forEach(function (r) {
    var d = r.querySelector(".detail");
    if (d && d.checkVisibility()) { shownDetails[r.getAttribute("data-status")]++; }
  });
  out["details"] = shownDetails;
  out["initial"] = state(plain);
  out["fragment status=error"] = state(document.getElementById("fragment"));
  pick("fail"); out["status=fail"] = state(plain);
  pick(""); type("PARIS"); out["q=PARIS"] = state(plain);
  pick("fail"); out["q=PARIS status=fail"] = state(plain);
  out["hash"] = plain.contentWindow.location.hash;
  // A page of long unbroken ids and values still fits its window.
  var long = document.getElementById("long").contentDocument.documentElement;
  out["long overflow"] = long.scrollWidth - long.clientWidth;
  type("no-such-text"); out["q=no-such-text"] = state(plain);
  document.getElementById("out").textContent = JSON.stringify(out);
});
</script></body></html>`

// TestHTMLInBrowser opens the page in headless Chromium, served from a
// loopback server with a harness page, and checks the number of rows
// rendered and that the text and verdict filters work, through the
// page's own inputs and through its URL fragment.
func TestHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	page := htmlPage(t)
	long := fixture(t)
	for _, r := range long {
		r.ID = strings.Repeat("x", 3000)
		if r.Case != nil {
			r.Case.ID = r.ID
			for i := range r.Case.Called {
				r.Case.Called[i].Name = strings.Repeat("n", 500)
			}
		}
	}
	longPage := string(render(t, long, func(w *bytes.Buffer) report.Writer { return report.HTML(w) }))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/report.html":
			io.WriteString(w, page)
		case "/long.html":
			io.WriteString(w, longPage)
		case "/":
			io.WriteString(w, browserHarness)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", srv.URL+"/")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	m := regexp.MustCompile(`<pre id="out">([^<]*)</pre>`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("harness output missing from the DOM:\n%s", dom)
	}
	type state struct {
		Rows, Rendered int
		Counter        string
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &got); err != nil {
		t.Fatalf("harness output %q: %v", m[1], err)
	}
	total := len(fixture(t))
	for _, tt := range []struct {
		state    string
		rendered int
	}{
		{"initial", total},
		{"fragment status=error", 2},
		{"status=fail", 4},
		{"q=PARIS", 4}, // case-insensitive, through ids, names and arguments
		{"q=PARIS status=fail", 2},
		{"q=no-such-text", 0},
	} {
		var s state
		if err := json.Unmarshal(got[tt.state], &s); err != nil {
			t.Errorf("%s: %v", tt.state, err)
			continue
		}
		want := state{Rows: total, Rendered: tt.rendered, Counter: strconv.Itoa(tt.rendered) + " of " + strconv.Itoa(total) + " cases shown"}
		if s != want {
			t.Errorf("%s: %+v, want %+v", tt.state, s, want)
		}
	}
	// Failing and erred cases show their details (and timelines) as the
	// page opens; passing ones are folded.
	var details map[string]int
	if err := json.Unmarshal(got["details"], &details); err != nil {
		t.Errorf("details: %v", err)
	}
	if want := map[string]int{"pass": 0, "fail": 4, "error": 2}; !maps.Equal(details, want) {
		t.Errorf("details shown at first: %v, want %v", details, want)
	}
	if h := string(got["hash"]); h != `"#q=PARIS\u0026status=fail"` && h != `"#q=PARIS&status=fail"` {
		t.Errorf("the filter is not kept in the URL fragment: %s", h)
	}
	if o := string(got["long overflow"]); o != "0" {
		t.Errorf("a page of long ids and names is %s px wider than its window", o)
	}
}
