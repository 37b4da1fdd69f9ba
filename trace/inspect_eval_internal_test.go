package trace

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// The members of an .eval log share one decompressed budget: each takes
// its size from what is left.
func TestZipJSONTotalBudget(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"a.json", "b.json"} {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		w.Write([]byte(`"` + strings.Repeat("x", 598) + `"`))
	}
	zw.Close()
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	left := int64(1000)
	if _, err := zipJSON(zr.File[0], &left); err != nil || left != 400 {
		t.Fatalf("first member: %v, %d bytes left; want 400", err, left)
	}
	if _, err := zipJSON(zr.File[1], &left); err == nil || !strings.Contains(err.Error(), "b.json: the log's members decompress to more than 1024 MiB in all") {
		t.Errorf("second member: %v, want the total's error", err)
	}
}
