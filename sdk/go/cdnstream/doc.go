// Package cdnstream exports types, functions, subpackages for provisioning cdnstream resources.
package cdnstream
