package security

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"
)

// Certificate is what a certificate is, as GET /bench/info and the bench's provenance record it
// (libs/config's CertificateDescription): never its bytes, never a private key.
type Certificate struct {
	Subject   string `json:"subject"`
	Issuer    string `json:"issuer"`
	ValidFrom string `json:"validFrom"`
	ValidTo   string `json:"validTo"`
	// KeyType is the public key's algorithm and size: ec P-256, rsa 2048, ed25519.
	KeyType string `json:"keyType"`
	// Fingerprint256 is SHA-256 of the DER, colon-separated upper-case hex (as Node's fingerprint256).
	Fingerprint256 string `json:"fingerprint256"`
}

// Describe is the first certificate of a PEM file's contents; the error names variable, never the bytes.
func Describe(data []byte, variable string) (*Certificate, error) {
	cert, err := parseFirst(data)
	if err != nil {
		return nil, fmt.Errorf("%s holds no PEM certificate", variable)
	}
	sum := sha256.Sum256(cert.Raw)
	hex := make([]string, len(sum))
	for i, b := range sum {
		hex[i] = fmt.Sprintf("%02X", b)
	}
	const iso = "2006-01-02T15:04:05.000Z07:00"
	return &Certificate{
		Subject:        cert.Subject.String(),
		Issuer:         cert.Issuer.String(),
		ValidFrom:      cert.NotBefore.UTC().Format(iso),
		ValidTo:        cert.NotAfter.UTC().Format(iso),
		KeyType:        keyType(cert.PublicKey),
		Fingerprint256: strings.Join(hex, ":"),
	}, nil
}

func parseFirst(data []byte) (*x509.Certificate, error) {
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return nil, fmt.Errorf("no certificate")
		}
		if block.Type == "CERTIFICATE" {
			return x509.ParseCertificate(block.Bytes)
		}
	}
}

func keyType(key any) string {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		return "ec " + k.Curve.Params().Name
	case *rsa.PublicKey:
		return fmt.Sprintf("rsa %d", k.N.BitLen())
	case ed25519.PublicKey:
		return "ed25519"
	}
	return "unknown"
}
