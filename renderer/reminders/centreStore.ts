import { create } from 'zustand';

/** Whether the notification centre is open: the bell toggles it, the reminder summary opens it. */
export const useNotificationCentre = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
