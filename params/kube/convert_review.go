package kube

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
)

// ConvertReview answers a conversion request: every object converted to
// req.DesiredAPIVersion by Convert, the field being the one Field names
// (/spec/parameters by default), in request order. Conversion is total,
// so what fails the review is only what prevents any conversion (an
// object that is not JSON, an unknown version, a direction the set
// refuses): the response is then a failure naming the object, and no
// objects. The context is the review's deadline; when it passes, the
// response is a failure saying how far it got. The response is never
// nil.
func ConvertReview(ctx context.Context, set *migrate.VersionSet, req *ConversionRequest, opts ...Option) *ConversionResponse {
	if req == nil {
		return &ConversionResponse{ConvertedObjects: []json.RawMessage{}, Result: Status{Status: StatusFailure, Message: "the review has no request"}}
	}
	c := newConfig(opts)
	fail := func(msg string) *ConversionResponse {
		return &ConversionResponse{UID: req.UID, ConvertedObjects: []json.RawMessage{}, Result: Status{Status: StatusFailure, Message: shorten(msg, 4*maxMessage)}}
	}
	out := make([]json.RawMessage, len(req.Objects))
	for i, o := range req.Objects {
		if ctx.Err() != nil {
			return fail(fmt.Sprintf("gave up after converting %d of %d objects: %v", i, len(req.Objects), context.Cause(ctx)))
		}
		conv, err := Convert(set, o, c.field, req.DesiredAPIVersion)
		if err != nil {
			return fail(fmt.Sprintf("object %d of %d: %v", i, len(req.Objects), err))
		}
		out[i] = conv
	}
	return &ConversionResponse{UID: req.UID, ConvertedObjects: out, Result: Status{Status: StatusSuccess}}
}
