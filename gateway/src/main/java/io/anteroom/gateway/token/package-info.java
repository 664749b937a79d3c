/**
 * Passes and tickets: Anteroom's signed tokens. {@link io.anteroom.gateway.token.TokenCodec} owns
 * the format; {@link io.anteroom.gateway.token.TokenProperties} ({@code anteroom.tokens.*}) holds
 * the keys.
 */
package io.anteroom.gateway.token;
