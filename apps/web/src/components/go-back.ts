import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Back in history when there is history, otherwise to / (as the navbar's Back button). */
export function useGoBack() {
  const navigate = useNavigate();
  return useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  }, [navigate]);
}
