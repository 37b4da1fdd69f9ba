// Package mcptest finds, for tests, the reference MCP servers from the npm
// registry (@modelcontextprotocol/server-everything and
// @modelcontextprotocol/server-filesystem), installed beforehand: tests
// never download anything. .ci/run installs them with
//
//	npm install --prefix "$TOOLGRADE_MCP_SERVERS" @modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem
//
// in $TOOLGRADE_MCP_SERVERS, by default toolgrade-ci/mcp-servers in the
// user cache directory (~/.cache on Linux), where this package looks
// too. Without Node or the servers, tests that need them skip, saying how
// to install them.
package mcptest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Dir returns where the servers are installed: $TOOLGRADE_MCP_SERVERS, else
// toolgrade-ci/mcp-servers in the user cache directory.
func Dir() string {
	if d := os.Getenv("TOOLGRADE_MCP_SERVERS"); d != "" {
		return d
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "toolgrade-ci", "mcp-servers")
}

// script returns the path of a server's entry point, or skips the test.
func script(t testing.TB, pkg string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("Node is not installed: the tests against the npm MCP servers skip (.ci/run installs Node and the servers)")
	}
	dir := Dir()
	path := filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("@modelcontextprotocol/%s is not installed in %s: run\n\tnpm install --prefix %q @modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem\n(or set TOOLGRADE_MCP_SERVERS to where they are; .ci/run does this)", pkg, dir, dir)
	}
	return path
}

// quote quotes a word for a command line.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Everything returns the command line that starts server-everything over
// stdio, or skips the test.
func Everything(t testing.TB) string {
	t.Helper()
	return "node " + quote(script(t, "server-everything")) + " stdio"
}

// Filesystem returns the command line that starts server-filesystem over
// stdio, allowed into dir, or skips the test.
func Filesystem(t testing.TB, dir string) string {
	t.Helper()
	return "node " + quote(script(t, "server-filesystem")) + " " + quote(dir)
}

// EverythingHTTP starts server-everything over Streamable HTTP on a free
// loopback port for the test's duration and returns its URL, or skips the
// test.
func EverythingHTTP(t testing.TB) string {
	t.Helper()
	path := script(t, "server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", path, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var seen []string
		for sc.Scan() {
			seen = append(seen, sc.Text())
			if strings.Contains(sc.Text(), "listening") {
				select {
				case ready <- "":
				default:
				}
			}
		}
		select {
		case ready <- strings.Join(seen, "\n"):
		default:
		}
	}()
	select {
	case out := <-ready:
		if out != "" {
			t.Fatalf("server-everything (streamableHttp) did not start:\n%s", out)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server-everything (streamableHttp) did not start within 30s")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}
