// Package samples mirrors libs/samples: row i of the blog's payload, built by both servers, and the
// check the client applies to every reply.
package samples

import (
	"strconv"
	"strings"
)

// Row is one row of the blog's payload: a row number and ten short strings, in the blog's key order.
type Row struct {
	RowNum  int64  `json:"rowNum"`
	ColumnA string `json:"columnA"`
	ColumnB string `json:"columnB"`
	ColumnC string `json:"columnC"`
	ColumnD string `json:"columnD"`
	ColumnE string `json:"columnE"`
	ColumnF string `json:"columnF"`
	ColumnG string `json:"columnG"`
	ColumnH string `json:"columnH"`
	ColumnI string `json:"columnI"`
	ColumnJ string `json:"columnJ"`
}

// Columns are the ten string columns' names; row i's value in column c is c + i.
var Columns = [10]string{"columnA", "columnB", "columnC", "columnD", "columnE", "columnF", "columnG", "columnH", "columnI", "columnJ"}

// Values returns row i's ten column values ("columnA"+i … "columnJ"+i). The ten strings share one
// backing allocation: the values are exactly the blog's, built with one allocation instead of ten.
func Values(i int) [10]string {
	n := strconv.Itoa(i)
	var b strings.Builder
	b.Grow(10 * (len("columnA") + len(n)))
	for _, c := range Columns {
		b.WriteString(c)
		b.WriteString(n)
	}
	all := b.String()
	var out [10]string
	width := len("columnA") + len(n)
	for c := range out {
		out[c] = all[c*width : (c+1)*width]
	}
	return out
}

// BuildRow is row i exactly as the blog built it: {rowNum: i, columnA: "columnA"+i, …, columnJ: "columnJ"+i}.
func BuildRow(i int) Row {
	v := Values(i)
	return Row{RowNum: int64(i), ColumnA: v[0], ColumnB: v[1], ColumnC: v[2], ColumnD: v[3], ColumnE: v[4],
		ColumnF: v[5], ColumnG: v[6], ColumnH: v[7], ColumnI: v[8], ColumnJ: v[9]}
}

// BuildRows is rows 0 … count-1, the payload both servers send for a request of count rows.
func BuildRows(count int) []Row {
	rows := make([]Row, count)
	for i := range rows {
		rows[i] = BuildRow(i)
	}
	return rows
}
