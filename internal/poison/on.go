//go:build toolgrade_poison

package poison

const tagged = true
