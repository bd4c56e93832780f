package samples

// ReplySliceRows is the rows a large reply builds (and encodes) between two checks for cancellation
// (REPLY_SLICE_ROWS in libs/samples): ~10 ms of work, so a reply whose caller has gone stops within
// about that; the check costs nanoseconds, 100 times for 1,000,000 rows.
const ReplySliceRows = 10_000

// WholeReplyMaxRows is the largest reply built and encoded in one piece, as the blog's servers did
// (WHOLE_REPLY_MAX_ROWS in libs/samples): every case but ①-3 (20k×4's 20,000 rows is the largest), so
// those cells measure what the blog measured. Above it, work is sliced.
const WholeReplyMaxRows = 20_000

const (
	samplesOpen  = `{"samples":[`
	samplesClose = `]}`
)

// rowJSONFixed is the bytes of row i's JSON without the digits of i (which appears eleven times).
var rowJSONFixed = len(`{"rowNum":0,"columnA":"columnA0","columnB":"columnB0","columnC":"columnC0","columnD":"columnD0","columnE":"columnE0","columnF":"columnF0","columnG":"columnG0","columnH":"columnH0","columnI":"columnI0","columnJ":"columnJ0"}`) - 11

// digitsUpTo is the decimal digits of rows 0 … count-1 together.
func digitsUpTo(count int) int {
	digits := 0
	for width, from, to := 1, 0, 10; from < count; width, from, to = width+1, to, to*10 {
		digits += width * (min(count, to) - from)
	}
	return digits
}

// SamplesJSONLength is the exact length of {"samples":[rows 0 … count-1]} as JSON (samplesJsonLength
// in libs/samples), so a reply written in slices sends the Content-Length the one-piece reply did.
func SamplesJSONLength(count int) int {
	if count == 0 {
		return len(samplesOpen) + len(samplesClose)
	}
	return len(samplesOpen) + count*rowJSONFixed + 11*digitsUpTo(count) + (count - 1) + len(samplesClose)
}
