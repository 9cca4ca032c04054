# The smallest scenario: the installer environment itself works (the KVM probe boots it).
echo "E2E-HELLO $(uname -r)"
seinstall --version
