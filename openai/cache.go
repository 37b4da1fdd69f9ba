package openai

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolgrade/toolgrade/internal/budget"
)

// A Cache keeps model replies on disk under content keys (see [CacheKey]),
// so that a re-run sends no request twice. It is safe for concurrent use,
// also by several processes sharing a directory: a write goes to a
// temporary file that is renamed into place, so a reader sees a whole
// entry or none.
//
// Entries live in DIR/<first two hex digits>/<key>. Nothing in an entry
// is secret: keys hash the request, which never holds the API key, and a
// [Client] scrubs a reply of its secrets before it keeps it.
type Cache struct {
	dir string
}

// OpenCache opens (creating it if needed) the cache in dir.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("cache: no directory given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// CacheKey hashes parts into a key: the hex SHA-256 of each part with its
// length, so that ("ab", "c") and ("a", "bc") differ.
func CacheKey(parts ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) (string, error) {
	if len(key) < 3 {
		return "", fmt.Errorf("cache: bad key %q", key)
	}
	for _, r := range key {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return "", fmt.Errorf("cache: bad key %q (want lower-case hex)", key)
		}
	}
	return filepath.Join(c.dir, key[:2], key), nil
}

// Get returns the entry under key; ok is false when there is none.
func (c *Cache) Get(key string) (data []byte, ok bool, err error) {
	p, err := c.path(key)
	if err != nil {
		return nil, false, err
	}
	data, err = budget.ReadFile(p, nil, maxReplyBytes, "") // no entry is larger than a reply
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cache: %w", err)
	}
	return data, true, nil
}

// Put stores data under key, replacing any entry.
func (c *Cache) Put(key string, data []byte) error {
	p, err := c.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// Delete removes the entry under key, if any.
func (c *Cache) Delete(key string) error {
	p, err := c.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
