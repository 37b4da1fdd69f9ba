package toolgrade

// AppendResultFields writes r through the result contract's field codecs,
// which [Result.AppendJSON] must agree with, byte for byte.
func AppendResultFields(b []byte, r *Result) []byte { return resultFields.Append(b, r) }
