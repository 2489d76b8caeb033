#!/bin/sh
# Regenerates the TEST-ONLY certificates in this folder (run it here with OpenSSL 3).
# The keys are public in the repository: never use them outside tests.
# Everything is valid for 100 years, so tests do not start failing one day.
set -e
DAYS=36500
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The test CA.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out ca.crt -days $DAYS \
	-subj "/O=distlock tests/CN=distlock test CA" \
	-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"

# sign NAME SUBJECT EXTENSIONS: a PKCS#8 key and a certificate signed by the CA.
sign() {
	openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$work/$1.csr" -subj "$2"
	printf '%s\n' "$3" > "$work/$1.ext"
	openssl x509 -req -in "$work/$1.csr" -CA ca.crt -CAkey "$work/ca.key" -CAcreateserial \
		-CAserial "$work/ca.srl" -out "$1.crt" -days $DAYS -extfile "$work/$1.ext"
}

sign server "/O=distlock tests/CN=localhost" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"

sign client "/O=distlock tests/CN=distlock test client" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
