import { total } from "./cart.js";

export function checkout(cart, card) {
  // TODO: validate the card's expiry date
  const amount = total(cart.items);
  // TODO: retry a declined payment once
  return { amount, card: card.last4 };
}
