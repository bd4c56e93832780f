package grpccodec

// EncodedParts is a message encoded beforehand, in parts (a reply encoded in slices that check for
// cancellation): Marshal sends the parts as they are, one message on the wire.
type EncodedParts [][]byte

// Len is the encoded message's size in bytes.
func (e EncodedParts) Len() int {
	n := 0
	for _, part := range e {
		n += len(part)
	}
	return n
}
