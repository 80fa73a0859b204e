package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chromium returns the headless browser (Debian's chromium package, which
// .ci/run installs), or skips (fails under CI=true) without one.
func chromium(t *testing.T) string {
	t.Helper()
	name := os.Getenv("CROSSLINK_CHROMIUM")
	if name == "" {
		name = "chromium"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		msg := "needs a headless Chromium (apt-get install chromium; or set CROSSLINK_CHROMIUM): " + err.Error()
		missingTool(t, msg)
	}
	return p
}

// The page the browser loads to check the gallery: index.html in a frame,
// then, once it and its images have loaded, for every image whether it
// decoded (naturalWidth > 0) and for every link whether it resolves (an
// element with the anchor's id, or a file that reads), written into the
// page as JSON for --dump-dom.
const galleryCheck = `<!doctype html>
<html><body><pre id="out">not loaded</pre>
<iframe id="f" src="%s" width="1280" height="1600"></iframe>
<script>
document.getElementById('f').onload = () => {
  const d = document.getElementById('f').contentDocument;
  const res = {title: d.title, images: [], links: []};
  for (const img of d.images) {
    res.images.push({src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0, width: img.naturalWidth});
  }
  for (const a of d.querySelectorAll('a[href]')) {
    const h = a.getAttribute('href');
    let ok = null; // another site: not checked
    if (h.startsWith('#')) {
      ok = d.getElementById(decodeURIComponent(h.slice(1))) !== null;
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(h) || h.startsWith('file:')) {
      const x = new XMLHttpRequest();
      try {
        x.open('GET', new URL(h, d.baseURI), false);
        x.send();
        ok = x.responseText.length > 0;
      } catch (e) { ok = false; }
    }
    res.links.push({href: h, ok: ok});
  }
  document.getElementById('out').textContent = JSON.stringify(res);
};
</script></body></html>
`

// TestGalleryInBrowser draws a small report (two figures of document 000
// from their quick datasets), opens out/figures/index.html in headless
// Chromium, and checks that every image decodes and every link resolves;
// then it takes a screenshot and checks that the page rendered: enough
// pixels away from the background, in enough colours, for figures.
func TestGalleryInBrowser(t *testing.T) {
	browser := chromium(t)
	root := t.TempDir()
	specs, out := filepath.Join(root, "specs"), filepath.Join(root, "out")
	if err := os.MkdirAll(specs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"rc13-fig1", "rc13-fig6"} {
		b, err := os.ReadFile(filepath.Join("specs", s+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(specs, s+".yaml")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := crosslink(t, "run", "-q", "-p", "quick", "-o", out, p); code != exitOK {
			t.Fatalf("run %s: exit %d: %s", s, code, stderr)
		}
	}
	for _, a := range [][]string{{"plot", "-o", out, "--specs", specs}, {"report", "-o", out, "--specs", specs}} {
		if code, _, stderr := crosslink(t, a...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", a[0], code, stderr)
		}
	}
	index := filepath.Join(out, "figures", "index.html")
	page := (&url.URL{Scheme: "file", Path: index}).String()
	check := filepath.Join(root, "check.html")
	if err := os.WriteFile(check, []byte(fmt.Sprintf(galleryCheck, page)), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(root, "profile")}
	dom, err := exec.Command(browser, append(flags, "--allow-file-access-from-files", "--virtual-time-budget=10000",
		"--dump-dom", (&url.URL{Scheme: "file", Path: check}).String())...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	s := string(dom)
	i, j := strings.Index(s, `<pre id="out">`), strings.Index(s, "</pre>")
	if i < 0 || j < i {
		t.Fatalf("no result in the dumped page:\n%.2000s", s)
	}
	var res struct {
		Title  string
		Images []struct {
			Src   string
			OK    bool
			Width int
		}
		Links []struct {
			Href string
			OK   *bool
		}
	}
	text := strings.NewReplacer("&quot;", `"`, "&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s[i+len(`<pre id="out">`) : j])
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		t.Fatalf("browser result %q: %v", text, err)
	}
	if len(res.Images) < 2 {
		t.Errorf("the gallery shows %d images, want at least the 2 drawn figures", len(res.Images))
	}
	for _, im := range res.Images {
		if !im.OK {
			t.Errorf("image %s does not load", im.Src)
		}
	}
	resolved := 0
	for _, l := range res.Links {
		if l.OK != nil && !*l.OK {
			t.Errorf("link %s does not resolve", l.Href)
		}
		if l.OK != nil && *l.OK {
			resolved++
		}
	}

	shot := filepath.Join(root, "gallery.png")
	if b, err := exec.Command(browser, append(flags, "--window-size=1280,1600", "--screenshot="+shot, page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, b)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	inked, colours := rendered(img)
	area := img.Bounds().Dx() * img.Bounds().Dy()
	// A blank or unstyled page has almost no ink; the figures and text of
	// the gallery cover several per cent of it in many colours.
	if frac := float64(inked) / float64(area); frac < 0.02 || colours < 64 {
		t.Errorf("screenshot %dx%d: %.1f %% of pixels away from the background, %d colours; want >= 2 %% and >= 64", img.Bounds().Dx(), img.Bounds().Dy(), 100*frac, colours)
	}
	t.Logf("gallery %q: %d images loaded, %d links resolved (of %d); screenshot %dx%d, %.1f %% inked, %d colours",
		res.Title, len(res.Images), resolved, len(res.Links), img.Bounds().Dx(), img.Bounds().Dy(), 100*float64(inked)/float64(area), colours)
}

// rendered counts the pixels of img that differ from its top-left pixel
// (the page background) and the distinct colours.
func rendered(img image.Image) (inked, colours int) {
	b := img.Bounds()
	br, bg, bb, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	seen := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if absDiff(r, br)+absDiff(g, bg)+absDiff(bl, bb) > 3*0x1000 {
				inked++
			}
		}
	}
	return inked, len(seen)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
