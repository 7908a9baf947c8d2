export function total(items) {
  // TODO: apply discounts before tax
  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);
}

export function isEmpty(items) {
  return items.length === 0;
}
