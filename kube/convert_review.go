package kube

import (
	"context"
	"encoding/json"
	"fmt"
)

// ConvertReview answers a conversion request: every object converted to
// req.DesiredAPIVersion by convert, in request order. For a field that
// a migrate.VersionSet types, convert calls Convert:
//
//	kube.ConvertReview(ctx, req, func(_ context.Context, obj []byte, to string) ([]byte, error) {
//		return kube.Convert(set, obj, "/spec/parameters", to)
//	})
//
// The conversion is all or nothing: the first object convert fails on
// fails the review, with a message naming the object (object 2 of 5:
// ...), and the response holds no objects. The context is the review's
// deadline: convert gets it, and once it has passed the review fails
// with code 504 and reason Timeout (as Admit answers), saying how far it
// got, also when convert failed because of it (a schema lookup cut
// short). An object nested deeper than 1,000 levels (the limit
// everywhere paramkit reads values) fails the review before any is
// converted. The response is never nil.
func ConvertReview(ctx context.Context, req *ConversionRequest, convert func(ctx context.Context, object []byte, apiVersion string) ([]byte, error)) *ConversionResponse {
	if req == nil {
		return &ConversionResponse{ConvertedObjects: []json.RawMessage{}, Result: *failure(400, "BadRequest", "the review has no request", nil)}
	}
	fail := func(code int32, reason, msg string) *ConversionResponse {
		return &ConversionResponse{UID: req.UID, ConvertedObjects: []json.RawMessage{}, Result: *failure(code, reason, shorten(msg, 4*maxMessage), nil)}
	}
	if convert == nil {
		return fail(500, "InternalError", "kube.ConvertReview needs a function that converts an object")
	}
	if err := checkDepths(req); err != nil {
		// Admission refuses an object nested this deep: conversion does
		// not carry one either.
		return fail(400, "BadRequest", err.Error())
	}
	out := make([]json.RawMessage, len(req.Objects))
	for i, o := range req.Objects {
		if ctx.Err() != nil {
			return fail(504, "Timeout", fmt.Sprintf("the review's deadline passed after converting %d of %d objects to %s: %v", i, len(req.Objects), req.DesiredAPIVersion, context.Cause(ctx)))
		}
		conv, err := convert(ctx, o, req.DesiredAPIVersion)
		if err != nil {
			if ctx.Err() != nil {
				return fail(504, "Timeout", fmt.Sprintf("the review's deadline passed while converting object %d of %d: %v", i, len(req.Objects), err))
			}
			return fail(0, "", fmt.Sprintf("object %d of %d: %v", i, len(req.Objects), err))
		}
		out[i] = conv
	}
	return &ConversionResponse{UID: req.UID, ConvertedObjects: out, Result: Status{Status: statusSuccess}}
}
