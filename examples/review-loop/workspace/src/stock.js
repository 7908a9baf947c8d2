// Stock levels of the shop's items: a list of { name, count }.

export function total(items) {
  return items.reduce((sum, item) => sum + item.count, 0);
}
