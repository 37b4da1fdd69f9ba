package openai

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

func TestCacheKey(t *testing.T) {
	a := CacheKey("ab", "c")
	if a == CacheKey("a", "bc") {
		t.Error(`CacheKey("ab", "c") == CacheKey("a", "bc")`)
	}
	if a != CacheKey("ab", "c") {
		t.Error("CacheKey is not deterministic")
	}
	if len(a) != 64 || strings.Trim(a, "0123456789abcdef") != "" {
		t.Errorf("CacheKey = %q, want 64 lower-case hex digits", a)
	}
}

func TestCache(t *testing.T) {
	c, err := OpenCache(filepath.Join(t.TempDir(), "nested", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	key := CacheKey("x")
	if _, ok, err := c.Get(key); ok || err != nil {
		t.Fatalf("Get on an empty cache = %v, %v; want a miss", ok, err)
	}
	if err := c.Put(key, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key, []byte("two")); err != nil {
		t.Fatal(err)
	}
	data, ok, err := c.Get(key)
	if !ok || err != nil || string(data) != "two" {
		t.Fatalf("Get = %q, %v, %v; want the last value put", data, ok, err)
	}
	if err := c.Delete(key); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := c.Get(key); ok {
		t.Fatal("entry still there after Delete")
	}
	if err := c.Delete(key); err != nil {
		t.Fatalf("Delete of a missing entry: %v", err)
	}
	// No temporary files are left behind.
	filepath.WalkDir(c.Dir(), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func TestCacheRejectsBadKeys(t *testing.T) {
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"", "ab", "../../etc/passwd", "ABCDEF", "abc/def"} {
		if err := c.Put(key, []byte("x")); err == nil {
			t.Errorf("Put(%q) succeeded", key)
		}
		if _, _, err := c.Get(key); err == nil {
			t.Errorf("Get(%q) succeeded", key)
		}
	}
}

// Concurrent writers of the same key never leave a torn entry: every read
// sees one whole value.
func TestCacheConcurrentWrites(t *testing.T) {
	c, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	key := CacheKey("shared")
	values := make([][]byte, 8)
	for i := range values {
		values[i] = bytes.Repeat([]byte(fmt.Sprint(i)), 64<<10)
	}
	var wg sync.WaitGroup
	for i := range values {
		wg.Go(func() {
			for range 20 {
				if err := c.Put(key, values[i]); err != nil {
					t.Error(err)
				}
				data, ok, err := c.Get(key)
				if err != nil || !ok {
					t.Errorf("Get = %v, %v", ok, err)
					continue
				}
				whole := false
				for _, v := range values {
					whole = whole || bytes.Equal(data, v)
				}
				if !whole {
					t.Errorf("read a torn entry of %d bytes", len(data))
				}
			}
		})
	}
	wg.Wait()
}

// Keys of different part lists differ.
func TestCacheKeyInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(rapid.String(), 0, 4).Draw(t, "a")
		b := rapid.SliceOfN(rapid.String(), 0, 4).Draw(t, "b")
		if (CacheKey(a...) == CacheKey(b...)) != slices.Equal(a, b) {
			t.Fatalf("CacheKey(%q) vs CacheKey(%q)", a, b)
		}
	})
}
